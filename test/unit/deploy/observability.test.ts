import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PROGRAM_INSTANCES, ROOT, loadConfigSpec, programOf, serviceDirs } from './service-specs';
import { GRAFANA_PROVISIONING_DIR, PROMETHEUS_DIR, allPanels, dashboardExprs, loadDashboards, loadPrometheusConfig, loadRules, loadRuleTests, metricNamesIn, ruleFiles } from './observability';

/*
 * Deploy/observability holds what an SRE runs beside Relay — Prometheus'
 * scrape config and alert rules, Grafana's provisioning and dashboard. These checks need no
 * server; promtool runs on the same files in test/e2e/prometheus-rules.test.ts, and a real
 * Prometheus scrapes the running services in test/e2e/prometheus.test.ts.
 */

interface ComposeService {
  environment?: Record<string, string | number | boolean | null>;
  volumes?: string[];
  ports?: string[];
  command?: string[];
}
const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
// the services, and a program compose runs again on another channel (outputs-deliverer)
const relayServices = Object.keys(compose.services).filter((name) => serviceDirs().includes(name) || name in PROGRAM_INSTANCES);

/** Where compose makes a service's HEALTH_PORT: its environment, else its config spec's default. */
function healthPortOf(name: string): number {
  const env = compose.services[name]?.environment ?? {};
  if (env.HEALTH_PORT !== undefined && env.HEALTH_PORT !== null) return Number(env.HEALTH_PORT);
  const spec = Object.values(loadConfigSpec(programOf(name))).find((v) => v.env === 'HEALTH_PORT');
  return Number(spec?.default);
}

/** The container path compose mounts a repository path at, in `service`. */
function mountTarget(service: string, repoPath: string): string | undefined {
  const volume = (compose.services[service]?.volumes ?? []).find((v) => path.resolve(ROOT, v.split(':')[0]!) === repoPath);
  return volume?.split(':')[1];
}

describe('deploy/observability/prometheus/prometheus.yml', () => {
  const config = loadPrometheusConfig();

  it('scrapes every Relay service compose runs, on its HEALTH_PORT, by its compose name (every replica, by DNS)', () => {
    const jobs = config.scrape_configs.map((job) => ({
      job: job.job_name,
      names: job.dns_sd_configs?.flatMap((sd) => sd.names),
      type: job.dns_sd_configs?.[0]?.type,
      port: job.dns_sd_configs?.[0]?.port,
    }));
    const want = relayServices.map((name) => ({ job: name, names: [name], type: 'A', port: healthPortOf(name) }));
    expect(relayServices.length).toBeGreaterThan(0);
    expect([...jobs].sort((a, b) => a.job.localeCompare(b.job))).toEqual([...want].sort((a, b) => a.job.localeCompare(b.job)));
  });

  it('never scrapes a public port (PORT of the gateway or the API)', () => {
    const publicPorts = relayServices.map((name) => Number(compose.services[name]?.environment?.PORT ?? NaN)).filter(Number.isFinite);
    const scraped = config.scrape_configs.flatMap((job) => job.dns_sd_configs?.map((sd) => sd.port) ?? []);
    expect(publicPorts.length).toBeGreaterThan(0);
    expect(scraped.filter((p) => publicPorts.includes(p as number))).toEqual([]);
  });

  it('loads every rule file in rules/ (paths relative to the config, as in the container)', () => {
    expect(config.rule_files).toEqual(['rules/*.yml']);
    expect(ruleFiles().map((f) => path.relative(PROMETHEUS_DIR, f))).toEqual(['rules/relay.rules.yml']);
  });
});

describe('alert rules (deploy/observability/prometheus/rules)', () => {
  const rules = loadRules();
  const alerts = rules.filter((r) => r.alert !== undefined);

  it('alert on what operators must act on: dead letters, a growing queue, activity lag, 5xx rate, broker unavailable, a flagged target', () => {
    expect(alerts.map((a) => a.alert)).toEqual(expect.arrayContaining(['RelayDeadLetterQueueNotEmpty', 'RelayQueueDepthGrowing', 'RelayActivityLagHigh', 'RelayIngest5xxRateHigh', 'RelayBrokerUnavailable', 'RelayTargetFlagged']));
  });

  it.each(alerts.map((a) => [a.alert!, a] as const))('%s has a severity, a summary, a description and a runbook note', (_name, alert) => {
    expect(['critical', 'warning', 'info']).toContain(alert.labels?.severity);
    for (const key of ['summary', 'description', 'runbook']) expect(alert.annotations?.[key]?.trim().length ?? 0).toBeGreaterThan(20);
  });

  it.each(alerts.map((a) => [a.alert!] as const))('%s has a rule unit test where it fires and one where it does not', (name) => {
    const cases = loadRuleTests().flatMap((f) => f.tests.flatMap((t) => t.alert_rule_test ?? [])).filter((c) => c.alertname === name);
    expect(cases.some((c) => (c.exp_alerts ?? []).length > 0)).toBe(true);
    expect(cases.some((c) => (c.exp_alerts ?? []).length === 0)).toBe(true);
  });

  it('the rule tests load the rule files there are', () => {
    const loaded = loadRuleTests().flatMap((f) => f.rule_files.map((r) => path.resolve(PROMETHEUS_DIR, 'tests', r)));
    expect([...new Set(loaded)].sort()).toEqual(ruleFiles());
  });

  it('no rule groups or filters by an id-like label (endpoint, target, event, delivery)', () => {
    const idLabels = /\b(endpoint_id|target_id|event_id|delivery_id|account_id)\b/;
    expect(rules.filter((r) => idLabels.test(r.expr)).map((r) => r.alert ?? r.record)).toEqual([]);
  });
});

describe('Grafana provisioning (deploy/observability/grafana)', () => {
  const provisioning = (rel: string) => parse(readFileSync(path.join(GRAFANA_PROVISIONING_DIR, rel), 'utf8'));

  it('the datasource is the compose profile\'s Prometheus, by service name and port', () => {
    const { datasources } = provisioning('datasources/prometheus.yml') as { datasources: { type: string; url: string; isDefault: boolean }[] };
    expect(datasources).toEqual([expect.objectContaining({ type: 'prometheus', url: 'http://prometheus:9090', isDefault: true })]);
    expect(compose.services.prometheus?.ports).toEqual([expect.stringMatching(/:9090$/)]);
  });

  it('the dashboards provider reads the directory compose mounts the repository\'s dashboards at', () => {
    const { providers } = provisioning('dashboards/relay.yml') as { providers: { type: string; options: { path: string } }[] };
    const dashboards = path.join(ROOT, 'deploy', 'observability', 'grafana', 'dashboards');
    expect(providers.map((p) => [p.type, p.options.path])).toEqual([['file', mountTarget('grafana', dashboards)]]);
    expect(mountTarget('grafana', GRAFANA_PROVISIONING_DIR)).toBe('/etc/grafana/provisioning');
    expect(mountTarget('prometheus', PROMETHEUS_DIR)).toBe('/etc/prometheus');
    expect(compose.services.prometheus?.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
  });
});

describe('Grafana dashboard (deploy/observability/grafana/dashboards)', () => {
  const dashboards = loadDashboards();
  const dashboard = dashboards[0]!.dashboard;
  const panels = allPanels(dashboard);
  const queried = panels.filter((p) => p.type !== 'row');

  it('is one dashboard with a stable uid and a datasource variable', () => {
    expect(dashboards.map((d) => d.file)).toEqual(['relay.json']);
    expect(dashboard.uid).toBe('relay-overview');
    expect(dashboard.templating?.list).toEqual([expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' })]);
  });

  it('every panel queries through the datasource variable, so the dashboard works imported into any Grafana', () => {
    const off = queried.filter((p) => p.datasource?.uid !== '${datasource}' || (p.targets ?? []).some((t) => t.datasource?.uid !== '${datasource}'));
    expect(off.map((p) => p.title)).toEqual([]);
    expect(queried.every((p) => (p.targets ?? []).length > 0)).toBe(true);
  });

  it('panel ids are unique and panels fit the 24-column grid without overlapping', () => {
    const ids = panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Set<string>();
    for (const p of panels) {
      const { x, y, w, h } = p.gridPos;
      expect(x + w).toBeLessThanOrEqual(24);
      for (let i = x; i < x + w; i++) {
        for (let j = y; j < y + h; j++) {
          expect(cells.has(`${i},${j}`) ? `${p.title} overlaps at ${i},${j}` : '').toBe('');
          cells.add(`${i},${j}`);
        }
      }
    }
  });

  /** The panels under each row, by row title. */
  const rows = new Map<string, string[]>();
  let current = '';
  for (const p of dashboard.panels) {
    if (p.type === 'row') rows.set((current = p.title), (p.panels ?? []).map((c) => c.title));
    else rows.get(current)?.push(p.title);
  }

  it.each(['ingest-gateway', 'webhook-deliverer', 'activity-writer'])('shows the golden signals of %s: traffic, errors, latency, saturation', (service) => {
    const row = [...rows.entries()].find(([title]) => title.includes(service));
    expect(row).toBeDefined();
    for (const signal of ['Traffic', 'Errors', 'Latency', 'Saturation']) expect(row![1].filter((t) => t.startsWith(`${signal}:`))).toHaveLength(1);
  });

  it('shows the management API (process metrics only: it exports no request metrics) with every other service in the process row', () => {
    const row = [...rows.entries()].find(([title]) => title.includes('management-api'));
    expect(row?.[1]).toEqual(expect.arrayContaining(['CPU', 'Event-loop lag p99']));
  });

  it('has the queue panels: depth of work, retry and dead-letter queues, consumers, activity lag, rows written/s, retries per tier, dead letters, flagged targets', () => {
    const exprs = queried.flatMap((p) => (p.targets ?? []).map((t) => t.expr)).join('\n');
    for (const q of ['\\.(deliveries\\.[a-z_]+|activity)', '\\.retry\\.', '\\.dead']) expect(exprs).toContain(`relay_queue_messages{queue=~\`.+${q}`);
    for (const name of ['relay_queue_consumers', 'relay_activity_lag_seconds', 'relay_activity_records_written_total', 'relay_delivery_retries_scheduled_total', 'relay_delivery_dead_lettered_total', 'relay_delivery_targets_flagged_total']) {
      expect(exprs).toContain(name);
    }
  });
});

describe('metricNamesIn (what the reference checks read from PromQL)', () => {
  it.each([
    ['sum by (job, outcome) (rate(relay_ingest_requests_total{outcome=~"A|B"}[5m]))', ['relay_ingest_requests_total']],
    ['histogram_quantile(0.99, sum by (le, kind) (rate(x_seconds_bucket[$__rate_interval])))', ['x_seconds_bucket']],
    ['relay:ingest_server_errors:rate5m / relay:ingest_requests:rate5m > 0.05', ['relay:ingest_requests:rate5m', 'relay:ingest_server_errors:rate5m']],
    ['max by (queue) (relay_queue_messages{queue=~`.+\\.dead`}) > 0', ['relay_queue_messages']],
    ['(sum(rate(a_total[5m])) or vector(0)) + on() group_left sum(b_total) and up{job="x"} == 1e3', ['a_total', 'b_total', 'up']],
    ['delta(c[10m] offset 1h) unless d', ['c', 'd']],
  ])('%s → %j', (expr, names) => {
    expect(metricNamesIn(expr)).toEqual(names);
  });

  it('finds at least one metric in every rule and every dashboard query', () => {
    expect(loadRules().filter((r) => metricNamesIn(r.expr).length === 0)).toEqual([]);
    const queries = dashboardExprs();
    expect(queries.length).toBeGreaterThan(30);
    expect(queries.filter((q) => metricNamesIn(q.expr).length === 0)).toEqual([]);
  });
});
