import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import {
  PROMETHEUS_CONFIG,
  dashboardExprs,
  ruleFiles,
  ruleTestFiles,
  withGrafanaVariables,
} from '../unit/deploy/observability';

/**
 * "Real parts": `promtool check config`, `promtool check rules` and `promtool test
 * rules` (the rule unit tests in deploy/observability/prometheus/tests) on the real promtool
 * from Debian's prometheus package, which `scripts/infra.sh up` installs.
 */
function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { encoding: 'utf8', timeout: 60000 });
  if (run.error)
    throw new Error(
      `promtool could not run (${run.error.message}); scripts/infra.sh up installs it (Debian package prometheus)`,
    );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'relay-promtool-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('promtool on deploy/observability/prometheus', () => {
  it('check config: the scrape config is valid and loads the rule files', () => {
    const { status, output } = promtool('check', 'config', PROMETHEUS_CONFIG);
    expect(output).toMatch(/SUCCESS: 1 rule files found/);
    expect(status).toBe(0);
  });

  it('check rules: every rule file parses, every expression and template is valid', () => {
    const { status, output } = promtool('check', 'rules', ...ruleFiles());
    expect(output).toMatch(/SUCCESS: \d+ rules found/);
    expect(status).toBe(0);
  });

  it('test rules: each alert fires on its unit test series, and stays quiet on the look-alikes', () => {
    const { status, output } = promtool('test', 'rules', ...ruleTestFiles());
    expect(output).toMatch(/SUCCESS/);
    expect(output).not.toMatch(/FAILED/);
    expect(status).toBe(0);
  });

  it('test rules fails a wrong expectation (so a pass above means the rules behave, not that nothing ran)', () => {
    const wrong = path.join(scratch, 'wrong.test.yml');
    writeFileSync(
      wrong,
      stringify({
        rule_files: ruleFiles().map((f) => path.relative(scratch, f)),
        evaluation_interval: '1m',
        tests: [
          {
            interval: '1m',
            input_series: [
              { series: 'relay_broker_connected{job="ingest-gateway", instance="x:8090"}', values: '1x5' },
            ],
            alert_rule_test: [
              {
                eval_time: '5m',
                alertname: 'RelayBrokerUnavailable',
                exp_alerts: [{ exp_labels: { severity: 'critical', job: 'ingest-gateway', instance: 'x:8090' } }],
              },
            ],
          },
        ],
      }),
    );
    const { status, output } = promtool('test', 'rules', wrong);
    expect(output).toMatch(/FAILED/);
    expect(status).not.toBe(0);
  });

  it("every Grafana dashboard query is valid PromQL (checked as a recording rule once Grafana's variables are filled in)", () => {
    const exprs = dashboardExprs();
    const file = path.join(scratch, 'dashboard-queries.yml');
    writeFileSync(
      file,
      stringify({
        groups: [
          {
            name: 'dashboard',
            rules: exprs.map((q, i) => ({ record: `dashboard:query_${i}`, expr: withGrafanaVariables(q.expr) })),
          },
        ],
      }),
    );
    const { status, output } = promtool('check', 'rules', file);
    expect(output).toContain(`SUCCESS: ${exprs.length} rules found`);
    expect(status).toBe(0);
  });
});
