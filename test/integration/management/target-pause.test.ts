import { BreakerRedis } from '@relay/deliverer';
import { eventually } from '../../support/infra';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/*
 * Issue 25 item 2: a target paused and resumed by hand (docs/delivery-limits.md "Pause and
 * resume") — the breaker state in Redis (the same scripts the deliverers ask), its stored copy
 * in the target view, the cache announcement, the role check. The deliveries it holds and
 * releases: test/e2e/target-breaker.test.ts.
 */

let fx: ManagementFixture;
let endpointId: string;
let targetId: string;
beforeAll(async () => {
  fx = await startManagement('mgmt-pause');
  endpointId = (await fx.api('post', '/v1/endpoints', { name: 'paused' })).body.id;
  targetId = (await fx.api('post', `/v1/endpoints/${endpointId}/targets`, { kind: 'webhook', name: 'orders', config: { url: 'https://hooks.example.com/in' }, limits: { rate: 5, per: 'minute' } })).body.id;
});
afterAll(async () => {
  await fx?.close();
});

describe('pause and resume a target by hand', () => {
  it('a new target shows its limits and a closed breaker since it was made', async () => {
    const res = await fx.api('get', `/v1/endpoints/${endpointId}/targets/${targetId}`);
    expect(res.body).toMatchObject({ limits: { rate: 5, per: 'minute', max_in_flight: null }, default_limits: null, breaker: null, breaker_state: { state: 'closed', since: res.body.created_at, reason: '' } });
  });

  it('pause: Redis holds it, the view shows paused since when and by whom, every cache is told; pausing again changes nothing', async () => {
    const before = fx.announced.length;
    const res = await fx.api('post', `/v1/endpoints/${endpointId}/targets/${targetId}/pause`);
    expect(res.status).toBe(200);
    expect(res.body.breaker_state).toMatchObject({ state: 'paused', reason: expect.stringMatching(/^paused by \S+$/) });
    expect((await new BreakerRedis(fx.redis, fx.namespace).read(targetId)).state).toBe('paused');
    await eventually(async () => fx.announced.slice(before).includes(`target ${targetId} ${endpointId}`), 5000, 'the announcement');
    const again = await fx.api('post', `/v1/endpoints/${endpointId}/targets/${targetId}/pause`);
    expect(again.body.breaker_state).toEqual(res.body.breaker_state);
  });

  it('resume: closed again; a viewer may do neither; an unknown target is 404', async () => {
    const viewer = await fx.keyWithRole('viewer');
    expect((await fx.apiAs(viewer.secret, 'post', `/v1/endpoints/${endpointId}/targets/${targetId}/resume`)).status).toBe(403);
    const res = await fx.api('post', `/v1/endpoints/${endpointId}/targets/${targetId}/resume`);
    expect(res.body.breaker_state).toMatchObject({ state: 'closed', reason: expect.stringMatching(/^resumed by /) });
    expect((await new BreakerRedis(fx.redis, fx.namespace).read(targetId)).state).toBe('closed');
    expect((await fx.api('post', `/v1/endpoints/${endpointId}/targets/tg_nope/pause`)).status).toBe(404);
  });
});
