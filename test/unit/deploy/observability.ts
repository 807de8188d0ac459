import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './service-specs';

/* Reading deploy/observability: the Prometheus config, rules and rule tests, and the Grafana dashboards. */

export const OBSERVABILITY = path.join(ROOT, 'deploy', 'observability');
export const PROMETHEUS_DIR = path.join(OBSERVABILITY, 'prometheus');
export const PROMETHEUS_CONFIG = path.join(PROMETHEUS_DIR, 'prometheus.yml');
export const RULES_DIR = path.join(PROMETHEUS_DIR, 'rules');
export const RULE_TESTS_DIR = path.join(PROMETHEUS_DIR, 'tests');
export const DASHBOARDS_DIR = path.join(OBSERVABILITY, 'grafana', 'dashboards');
export const GRAFANA_PROVISIONING_DIR = path.join(OBSERVABILITY, 'grafana', 'provisioning');

export interface ScrapeConfig {
  job_name: string;
  dns_sd_configs?: { names: string[]; type?: string; port?: number }[];
  static_configs?: { targets: string[] }[];
  [key: string]: unknown;
}
export interface PrometheusConfig {
  global?: Record<string, unknown>;
  rule_files?: string[];
  scrape_configs: ScrapeConfig[];
  [key: string]: unknown;
}
export interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
export interface AlertRuleTest {
  eval_time: string;
  alertname: string;
  exp_alerts?: unknown[];
}
export interface RuleTestFile {
  rule_files: string[];
  tests: { name: string; alert_rule_test?: AlertRuleTest[] }[];
}
export interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource?: { type?: string; uid?: string };
  targets?: { refId: string; expr: string; datasource?: { uid?: string } }[];
  panels?: Panel[];
}
export interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating?: { list: { name: string; type: string; query?: string }[] };
}

const yamlFiles = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));

export const loadPrometheusConfig = (): PrometheusConfig => parse(readFileSync(PROMETHEUS_CONFIG, 'utf8')) as PrometheusConfig;
export const ruleFiles = (): string[] => yamlFiles(RULES_DIR);
export const ruleTestFiles = (): string[] => yamlFiles(RULE_TESTS_DIR);

/** Every rule of every group in rules/. */
export function loadRules(): Rule[] {
  return ruleFiles().flatMap((f) => (parse(readFileSync(f, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules));
}

export const loadRuleTests = (): RuleTestFile[] => ruleTestFiles().map((f) => parse(readFileSync(f, 'utf8')) as RuleTestFile);

export function loadDashboards(): { file: string; dashboard: Dashboard }[] {
  return readdirSync(DASHBOARDS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ file: f, dashboard: JSON.parse(readFileSync(path.join(DASHBOARDS_DIR, f), 'utf8')) as Dashboard }));
}

/** Panels at any depth (a collapsed row keeps its panels inside it). */
export function allPanels(dashboard: Dashboard): Panel[] {
  return dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
}

/** Every query of every dashboard, with where it is, for error messages. */
export function dashboardExprs(): { where: string; expr: string }[] {
  return loadDashboards().flatMap(({ file, dashboard }) =>
    allPanels(dashboard).flatMap((p) => (p.targets ?? []).map((t) => ({ where: `${file} panel "${p.title}" ${t.refId}`, expr: t.expr }))),
  );
}

/** Grafana's interval variables, as Prometheus would see them once Grafana substituted them. */
export const withGrafanaVariables = (expr: string): string => expr.replace(/\$__(rate_)?interval|\$__range/g, '1m');

/** Keywords and clause words of PromQL that look like names but are not metrics. */
const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool', 'inf', 'nan', 'atan2']);

/**
 * The metric names a PromQL expression selects: identifiers that are not functions,
 * aggregations, keywords, label names (inside `{}` or a `by (…)` clause) or strings. Enough
 * for the expressions Relay writes; not a full PromQL parser (promtool checks the syntax).
 */
export function metricNamesIn(expr: string): string[] {
  const stripped = withGrafanaVariables(expr)
    .replace(/\$\{?\w+\}?/g, ' ')
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const m of stripped.matchAll(/\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?:ms|[smhdwy])*|[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const token = m[0];
    if (/^\d/.test(token) || KEYWORDS.has(token)) continue;
    const rest = stripped.slice((m.index ?? 0) + token.length);
    if (/^\s*\(/.test(rest)) continue; // a function or an aggregation
    names.add(token);
  }
  return [...names].sort();
}

/**
 * The series names a /metrics answer (Prometheus text format) can produce, from its TYPE lines:
 * a histogram's `_bucket`, `_sum` and `_count`, a summary's quantiles, `_sum` and `_count`. A
 * labelled counter never incremented has a TYPE line and no sample, and is still exported.
 */
export function exportedNames(exposition: string): string[] {
  const names = new Set<string>();
  for (const m of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = m as unknown as [string, string, string];
    if (type === 'histogram') ['_bucket', '_sum', '_count'].forEach((s) => names.add(name + s));
    else if (type === 'summary') [name, `${name}_sum`, `${name}_count`].forEach((s) => names.add(s));
    else names.add(name);
  }
  return [...names].sort();
}

/** Series Prometheus itself adds: per scraped target (`up`, `scrape_*`) and for alerts. */
export const PROMETHEUS_OWN_SERIES = ['up', 'scrape_duration_seconds', 'scrape_samples_scraped', 'scrape_samples_post_metric_relabeling', 'scrape_series_added', 'ALERTS', 'ALERTS_FOR_STATE'];
