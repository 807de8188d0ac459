"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.PROMETHEUS_OWN_SERIES = exports.withGrafanaVariables = exports.loadRuleTests = exports.ruleTestFiles = exports.ruleFiles = exports.loadPrometheusConfig = exports.GRAFANA_PROVISIONING_DIR = exports.DASHBOARDS_DIR = exports.RULE_TESTS_DIR = exports.RULES_DIR = exports.PROMETHEUS_CONFIG = exports.PROMETHEUS_DIR = exports.OBSERVABILITY = void 0;
exports.loadRules = loadRules;
exports.loadDashboards = loadDashboards;
exports.allPanels = allPanels;
exports.dashboardExprs = dashboardExprs;
exports.metricNamesIn = metricNamesIn;
exports.exportedNames = exportedNames;
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const yaml_1 = require("yaml");
const service_specs_1 = require("./service-specs");
/* Reading deploy/observability: the Prometheus config, rules and rule tests, and the Grafana dashboards. */
exports.OBSERVABILITY = node_path_1.default.join(service_specs_1.ROOT, 'deploy', 'observability');
exports.PROMETHEUS_DIR = node_path_1.default.join(exports.OBSERVABILITY, 'prometheus');
exports.PROMETHEUS_CONFIG = node_path_1.default.join(exports.PROMETHEUS_DIR, 'prometheus.yml');
exports.RULES_DIR = node_path_1.default.join(exports.PROMETHEUS_DIR, 'rules');
exports.RULE_TESTS_DIR = node_path_1.default.join(exports.PROMETHEUS_DIR, 'tests');
exports.DASHBOARDS_DIR = node_path_1.default.join(exports.OBSERVABILITY, 'grafana', 'dashboards');
exports.GRAFANA_PROVISIONING_DIR = node_path_1.default.join(exports.OBSERVABILITY, 'grafana', 'provisioning');
const yamlFiles = (dir) => (0, node_fs_1.readdirSync)(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => node_path_1.default.join(dir, f));
const loadPrometheusConfig = () => (0, yaml_1.parse)((0, node_fs_1.readFileSync)(exports.PROMETHEUS_CONFIG, 'utf8'));
exports.loadPrometheusConfig = loadPrometheusConfig;
const ruleFiles = () => yamlFiles(exports.RULES_DIR);
exports.ruleFiles = ruleFiles;
const ruleTestFiles = () => yamlFiles(exports.RULE_TESTS_DIR);
exports.ruleTestFiles = ruleTestFiles;
/** Every rule of every group in rules/. */
function loadRules() {
    return (0, exports.ruleFiles)().flatMap((f) => (0, yaml_1.parse)((0, node_fs_1.readFileSync)(f, 'utf8')).groups.flatMap((g) => g.rules));
}
const loadRuleTests = () => (0, exports.ruleTestFiles)().map((f) => (0, yaml_1.parse)((0, node_fs_1.readFileSync)(f, 'utf8')));
exports.loadRuleTests = loadRuleTests;
function loadDashboards() {
    return (0, node_fs_1.readdirSync)(exports.DASHBOARDS_DIR)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => ({ file: f, dashboard: JSON.parse((0, node_fs_1.readFileSync)(node_path_1.default.join(exports.DASHBOARDS_DIR, f), 'utf8')) }));
}
/** Panels at any depth (a collapsed row keeps its panels inside it). */
function allPanels(dashboard) {
    return dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
}
/** Every query of every dashboard, with where it is, for error messages. */
function dashboardExprs() {
    return loadDashboards().flatMap(({ file, dashboard }) => allPanels(dashboard).flatMap((p) => (p.targets ?? []).map((t) => ({ where: `${file} panel "${p.title}" ${t.refId}`, expr: t.expr }))));
}
/** Grafana's interval variables, as Prometheus would see them once Grafana substituted them. */
const withGrafanaVariables = (expr) => expr.replace(/\$__(rate_)?interval|\$__range/g, '1m');
exports.withGrafanaVariables = withGrafanaVariables;
/** Keywords and clause words of PromQL that look like names but are not metrics. */
const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool', 'inf', 'nan', 'atan2']);
/**
 * The metric names a PromQL expression selects: identifiers that are not functions,
 * aggregations, keywords, label names (inside `{}` or a `by (…)` clause) or strings. Enough
 * for the expressions Relay writes; not a full PromQL parser (promtool checks the syntax).
 */
function metricNamesIn(expr) {
    const stripped = (0, exports.withGrafanaVariables)(expr)
        .replace(/\$\{?\w+\}?/g, ' ')
        .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
        .replace(/\{[^}]*\}/g, ' ')
        .replace(/\[[^\]]*\]/g, ' ')
        .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
    const names = new Set();
    for (const m of stripped.matchAll(/\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?:ms|[smhdwy])*|[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
        const token = m[0];
        if (/^\d/.test(token) || KEYWORDS.has(token))
            continue;
        const rest = stripped.slice((m.index ?? 0) + token.length);
        if (/^\s*\(/.test(rest))
            continue; // a function or an aggregation
        names.add(token);
    }
    return [...names].sort();
}
/**
 * The series names a /metrics answer (Prometheus text format) can produce, from its TYPE lines:
 * a histogram's `_bucket`, `_sum` and `_count`, a summary's quantiles, `_sum` and `_count`. A
 * labelled counter never incremented has a TYPE line and no sample, and is still exported.
 */
function exportedNames(exposition) {
    const names = new Set();
    for (const m of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
        const [, name, type] = m;
        if (type === 'histogram')
            ['_bucket', '_sum', '_count'].forEach((s) => names.add(name + s));
        else if (type === 'summary')
            [name, `${name}_sum`, `${name}_count`].forEach((s) => names.add(s));
        else
            names.add(name);
    }
    return [...names].sort();
}
/** Series Prometheus itself adds: per scraped target (`up`, `scrape_*`) and for alerts. */
exports.PROMETHEUS_OWN_SERIES = ['up', 'scrape_duration_seconds', 'scrape_samples_scraped', 'scrape_samples_post_metric_relabeling', 'scrape_series_added', 'ALERTS', 'ALERTS_FOR_STATE'];
//# sourceMappingURL=observability.js.map