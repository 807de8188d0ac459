import { createGatewayMetrics, registerSpoolLength } from './metrics';

describe('gateway metrics: the spool length read at scrape time', () => {
  it('reports the length the spool answers, read anew on every scrape', async () => {
    const metrics = createGatewayMetrics();
    let n = 4;
    registerSpoolLength(metrics.registry, async () => n);
    expect(await metrics.registry.metrics()).toMatch(/^relay_ingest_activity_spool_length 4$/m);
    n = 0;
    expect(await metrics.registry.metrics()).toMatch(/^relay_ingest_activity_spool_length 0$/m);
  });

  it('an unreadable spool (Redis down) reports NaN, not 0 ("empty"), and the scrape still answers', async () => {
    const metrics = createGatewayMetrics();
    metrics.requests.inc({ outcome: 'ACCEPTED' });
    registerSpoolLength(metrics.registry, async () => {
      throw new Error('Connection is closed.');
    });
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^relay_ingest_requests_total\{outcome="ACCEPTED"\} 1$/m);
    expect(text).toMatch(/^relay_ingest_activity_spool_length Nan$/m);
  });
});
