import { must } from '@relay/client';
import { BreakerRedis } from '@relay/deliverer';
import { eventually } from '../../support/infra';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/*
 * A target paused and resumed by hand (docs/delivery-limits.md "Pause and
 * resume") — the breaker state in Redis (the same scripts the deliverers ask), its stored copy
 * in the target view, the cache announcement, the role check. The deliveries it holds and
 * releases: test/e2e/target-breaker.test.ts.
 */

let fx: ManagementFixture;
let endpointId: string;
let targetId: string;
beforeAll(async () => {
  fx = await startManagement('mgmt-pause');
  endpointId = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'paused' } }))).id;
  targetId = (
    await must(
      fx.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId } },
        body: {
          kind: 'webhook',
          name: 'orders',
          config: { url: 'https://hooks.example.com/in' },
          limits: { rate: 5, per: 'minute' },
        },
      }),
    )
  ).id;
});
afterAll(async () => {
  await fx?.close();
});

describe('pause and resume a target by hand', () => {
  it('a new target shows its limits and a closed breaker since it was made', async () => {
    const target = await must(
      fx.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', { params: { path: { endpointId, targetId } } }),
    );
    expect(target).toMatchObject({
      limits: { rate: 5, per: 'minute', max_in_flight: null },
      default_limits: null,
      breaker: null,
      breaker_state: { state: 'closed', since: target.created_at, reason: '' },
    });
  });

  it('pause: Redis holds it, the view shows paused since when and by whom, every cache is told; pausing again changes nothing', async () => {
    const before = fx.announced.length;
    const pause = () =>
      must(
        fx.client.POST('/v1/endpoints/{endpointId}/targets/{targetId}/pause', {
          params: { path: { endpointId, targetId } },
        }),
      );
    const res = await pause();
    expect(res.breaker_state).toMatchObject({ state: 'paused', reason: expect.stringMatching(/^paused by \S+$/) });
    expect((await new BreakerRedis(fx.redis, fx.namespace).read(targetId)).state).toBe('paused');
    await eventually(
      async () => fx.announced.slice(before).includes(`target ${targetId} ${endpointId}`),
      5000,
      'the announcement',
    );
    const again = await pause();
    expect(again.breaker_state).toEqual(res.breaker_state);
  });

  it('resume: closed again; a viewer may do neither; an unknown target is 404', async () => {
    const viewer = await fx.keyWithRole('viewer');
    const resume = { params: { path: { endpointId, targetId } } };
    expect(
      (await fx.clientAs(viewer.secret).POST('/v1/endpoints/{endpointId}/targets/{targetId}/resume', resume)).response
        .status,
    ).toBe(403);
    const res = await must(fx.client.POST('/v1/endpoints/{endpointId}/targets/{targetId}/resume', resume));
    expect(res.breaker_state).toMatchObject({ state: 'closed', reason: expect.stringMatching(/^resumed by /) });
    expect((await new BreakerRedis(fx.redis, fx.namespace).read(targetId)).state).toBe('closed');
    expect(
      (
        await fx.client.POST('/v1/endpoints/{endpointId}/targets/{targetId}/pause', {
          params: { path: { endpointId, targetId: 'tg_nope' } },
        })
      ).response.status,
    ).toBe(404);
  });
});
