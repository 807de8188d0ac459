import { Registry } from 'prom-client';
import type { GateScripts } from '@relay/target-gate';
import { countGateCalls } from './metrics';

describe('relay_target_gate_calls_total', () => {
  it('counts each script call of the gate by script, from 0, and passes the call and its answer through', async () => {
    const registry = new Registry();
    const view = { state: 'closed' as const, since: 0, reason: '', seq: 0 };
    const seen: string[] = [];
    const scripts: GateScripts = {
      gate: async (id) => (seen.push(`gate ${id}`), { verdict: 'go', lease: 'L', view, won: false, flag: false }),
      report: async (id, counts) => (seen.push(`report ${id} ${counts.ok}`), { view, won: false }),
      probed: async (id) => (seen.push(`probed ${id}`), { view, won: true }),
      giveBack: async (id, tokens) => void seen.push(`give_back ${id} ${tokens.length}`),
    };
    const counted = countGateCalls(registry, scripts);
    expect(await registry.getSingleMetricAsString('relay_target_gate_calls_total')).toMatch(/script="report"} 0/);
    await counted.report('tg_1', { ok: 3, failed: 0 }, [], {
      failure_rate_pct: 50,
      min_attempts: 20,
      window_s: 60,
      cool_down_s: 30,
      flag_after_open_s: 86_400,
    });
    await counted.report('tg_2', { ok: 1, failed: 0 }, [], {
      failure_rate_pct: 50,
      min_attempts: 20,
      window_s: 60,
      cool_down_s: 30,
      flag_after_open_s: 86_400,
    });
    expect(await counted.probed('tg_1', 'P', true, '')).toEqual({ view, won: true });
    await counted.giveBack('tg_1', ['t1', 't2'], []);
    expect(seen).toEqual(['report tg_1 3', 'report tg_2 1', 'probed tg_1', 'give_back tg_1 2']);
    const text = await registry.getSingleMetricAsString('relay_target_gate_calls_total');
    expect(text).toMatch(/script="report"} 2/);
    expect(text).toMatch(/script="probed"} 1/);
    expect(text).toMatch(/script="gate"} 0/);
    expect(text).toMatch(/script="give_back"} 1/);
  });
});
