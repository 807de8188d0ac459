import { createWriterMetrics } from './metrics';

describe('activity-writer metrics (issue 10, item 2): lag and records written', () => {
  it('activity lag and unwritten records are read from the pipeline when scraped', async () => {
    const pipeline = { lag: 0, held: 0, lagSeconds: () => pipeline.lag, unwritten: () => pipeline.held };
    const metrics = createWriterMetrics(pipeline);
    pipeline.lag = 12.5;
    pipeline.held = 40;
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^relay_activity_lag_seconds 12\.5$/m);
    expect(text).toMatch(/^relay_activity_unwritten_records 40$/m);
  });

  it('records written is a counter (its rate is records written per second) with no labels', async () => {
    const metrics = createWriterMetrics({ lagSeconds: () => 0, unwritten: () => 0 });
    metrics.recordsWritten.inc(250);
    expect(await metrics.registry.metrics()).toMatch(/# TYPE relay_activity_records_written_total counter\nrelay_activity_records_written_total 250$/m);
  });
});
