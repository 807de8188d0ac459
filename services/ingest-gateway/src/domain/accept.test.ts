import { inMirrorSample } from '@relay/targets';
import { routeEvent } from './accept';
import type { EndpointView } from './endpoint-view';

/* Routing an event to an endpoint's targets, with a mirror among them (docs/cli.md "Mirror"). */

const view = {
  endpoint: { id: 'ep_1', account_id: 'acc_1' },
  settings: null,
  targets: [
    { id: 'tg_prod', kind: 'webhook', channel: 'webhook', route: null, routing: null },
    { id: 'tg_mirror', kind: 'cli', channel: 'outputs', route: null, routing: null, mirror: 30 },
    { id: 'tg_rule', kind: 'webhook', channel: 'webhook', route: () => false, routing: null },
  ],
  rulesKey: 'k',
  plan: { payload_limit_bytes: 1, monthly_accepted_events: 1 },
} as unknown as EndpointView;

const ids = Array.from({ length: 200 }, (_, i) => `evt_01jd${String(i).padStart(22, '0')}`);

describe('routeEvent with a mirror', () => {
  it('a mirror gets the events of its sample; the others are routed as ever, and the row names only targets whose rules held the event back', () => {
    for (const id of ids) {
      const { routed, notRouted } = routeEvent(view, id, {});
      const want = inMirrorSample(id, 30) ? ['tg_prod', 'tg_mirror'] : ['tg_prod'];
      expect(routed.map((t) => t.id)).toEqual(want);
      expect(notRouted).toEqual(['tg_rule']);
    }
    expect(ids.some((id) => inMirrorSample(id, 30))).toBe(true);
    expect(ids.some((id) => !inMirrorSample(id, 30))).toBe(true);
  });

  it("the rule pool's decisions apply to a mirror within its sample", () => {
    const inSample = ids.find((id) => inMirrorSample(id, 30))!;
    expect(routeEvent(view, inSample, {}, [true, false, true]).routed.map((t) => t.id)).toEqual(['tg_prod', 'tg_rule']);
  });
});
