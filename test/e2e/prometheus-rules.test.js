"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = __importDefault(require("node:path"));
const yaml_1 = require("yaml");
const observability_1 = require("../unit/deploy/observability");
/**
 * Issue 10, "Real parts": `promtool check config`, `promtool check rules` and `promtool test
 * rules` (the rule unit tests in deploy/observability/prometheus/tests) on the real promtool
 * from Debian's prometheus package, which `scripts/infra.sh up` installs.
 */
function promtool(...args) {
    const run = (0, node_child_process_1.spawnSync)('promtool', args, { encoding: 'utf8', timeout: 60000 });
    if (run.error)
        throw new Error(`promtool could not run (${run.error.message}); scripts/infra.sh up installs it (Debian package prometheus)`);
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
let scratch;
beforeAll(() => {
    scratch = (0, node_fs_1.mkdtempSync)(node_path_1.default.join((0, node_os_1.tmpdir)(), 'relay-promtool-'));
});
afterAll(() => (0, node_fs_1.rmSync)(scratch, { recursive: true, force: true }));
describe('promtool on deploy/observability/prometheus', () => {
    it('check config: the scrape config is valid and loads the rule files', () => {
        const { status, output } = promtool('check', 'config', observability_1.PROMETHEUS_CONFIG);
        expect(output).toMatch(/SUCCESS: 1 rule files found/);
        expect(status).toBe(0);
    });
    it('check rules: every rule file parses, every expression and template is valid', () => {
        const { status, output } = promtool('check', 'rules', ...(0, observability_1.ruleFiles)());
        expect(output).toMatch(/SUCCESS: \d+ rules found/);
        expect(status).toBe(0);
    });
    it('test rules: each alert fires on its unit test series, and stays quiet on the look-alikes', () => {
        const { status, output } = promtool('test', 'rules', ...(0, observability_1.ruleTestFiles)());
        expect(output).toMatch(/SUCCESS/);
        expect(output).not.toMatch(/FAILED/);
        expect(status).toBe(0);
    });
    it('test rules fails a wrong expectation (so a pass above means the rules behave, not that nothing ran)', () => {
        const wrong = node_path_1.default.join(scratch, 'wrong.test.yml');
        (0, node_fs_1.writeFileSync)(wrong, (0, yaml_1.stringify)({
            rule_files: (0, observability_1.ruleFiles)().map((f) => node_path_1.default.relative(scratch, f)),
            evaluation_interval: '1m',
            tests: [{
                    interval: '1m',
                    input_series: [{ series: 'relay_broker_connected{job="ingest-gateway", instance="x:8090"}', values: '1x5' }],
                    alert_rule_test: [{ eval_time: '5m', alertname: 'RelayBrokerUnavailable', exp_alerts: [{ exp_labels: { severity: 'critical', job: 'ingest-gateway', instance: 'x:8090' } }] }],
                }],
        }));
        const { status, output } = promtool('test', 'rules', wrong);
        expect(output).toMatch(/FAILED/);
        expect(status).not.toBe(0);
    });
    it('every Grafana dashboard query is valid PromQL (checked as a recording rule once Grafana\'s variables are filled in)', () => {
        const exprs = (0, observability_1.dashboardExprs)();
        const file = node_path_1.default.join(scratch, 'dashboard-queries.yml');
        (0, node_fs_1.writeFileSync)(file, (0, yaml_1.stringify)({ groups: [{ name: 'dashboard', rules: exprs.map((q, i) => ({ record: `dashboard:query_${i}`, expr: (0, observability_1.withGrafanaVariables)(q.expr) })) }] }));
        const { status, output } = promtool('check', 'rules', file);
        expect(output).toContain(`SUCCESS: ${exprs.length} rules found`);
        expect(status).toBe(0);
    });
});
//# sourceMappingURL=prometheus-rules.test.js.map