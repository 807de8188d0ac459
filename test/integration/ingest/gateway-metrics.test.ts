import { eventually } from '../../support/infra';
import { IngestHarness } from './harness';
import { send } from './http';

/**
 * The gateway's metrics move on the events they name — a 202 observes one
 * latency and counts its broker confirms; the spool length is LLEN of the spool, read when
 * scraped. No label carries an endpoint or event id.
 */
let h: IngestHarness;

beforeAll(async () => {
  h = await IngestHarness.start('gateway-metrics');
});

afterAll(async () => {
  await h?.stop();
});

describe('gateway metrics', () => {
  it('a 202 observes one accepted latency, counts ACCEPTED and its confirmed publishes; no label names the endpoint or event', async () => {
    const gw = await h.gateway();
    const id = await h.endpoint(await h.account(), {}, 2);
    expect((await send(gw, id)).status).toBe(202);
    // the ACCEPTED row and the stored payload are published after the 202: four confirms in all
    const confirmed = async (): Promise<number> =>
      (await gw.metrics.publishes.get()).values.find((v) => v.labels.result === 'confirmed')?.value ?? 0;
    await eventually(async () => (await confirmed()) >= 4, 5000, 'four confirmed publishes');
    const latency = await gw.metrics.acceptedDuration.get();
    expect(latency.values.find((v) => v.metricName === 'relay_ingest_accepted_duration_seconds_count')?.value).toBe(1);
    expect((await gw.metrics.requests.get()).values).toEqual([
      expect.objectContaining({ labels: { outcome: 'ACCEPTED' }, value: 1 }),
    ]);
    // two deliveries, the ACCEPTED activity row and the payload kept for resends
    expect((await gw.metrics.publishes.get()).values).toEqual([
      expect.objectContaining({ labels: { result: 'confirmed' }, value: 4 }),
    ]);
    const text = await gw.metrics.registry.metrics();
    expect(text).not.toContain(id);
  });

  it("the activity spool length is the spool list's LLEN at scrape time", async () => {
    const gw = await h.gateway();
    const key = `${h.namespace}:activity-spool`;
    await h.redis.lpush(key, '{"a":1}', '{"a":2}', '{"a":3}');
    try {
      expect(await gw.metrics.registry.metrics()).toMatch(/^relay_ingest_activity_spool_length 3$/m);
      await h.redis.rpop(key);
      expect(await gw.metrics.registry.metrics()).toMatch(/^relay_ingest_activity_spool_length 2$/m);
    } finally {
      await h.redis.del(key);
    }
  });
});
