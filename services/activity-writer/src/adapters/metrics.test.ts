import { createWriterMetrics } from './metrics';

describe('activity-writer metrics: lag and records written', () => {
  it('activity lag and unwritten records are read from the pipeline when scraped', async () => {
    const pipeline = {
      lag: 0,
      held: 0,
      lagSeconds: () => pipeline.lag,
      unwritten: () => pipeline.held,
      indexProbes: () => 0,
    };
    const metrics = createWriterMetrics(pipeline);
    pipeline.lag = 12.5;
    pipeline.held = 40;
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^relay_activity_lag_seconds 12\.5$/m);
    expect(text).toMatch(/^relay_activity_unwritten_records 40$/m);
  });

  it('records written is a counter (its rate is records written per second) with no labels', async () => {
    const metrics = createWriterMetrics({ lagSeconds: () => 0, unwritten: () => 0, indexProbes: () => 0 });
    metrics.recordsWritten.inc(250);
    expect(await metrics.registry.metrics()).toMatch(
      /# TYPE relay_activity_records_written_total counter\nrelay_activity_records_written_total 250$/m,
    );
  });

  it('index probes and partition hand-overs are counters: what taking and giving partitions costs', async () => {
    const pipeline = { probes: 0, lagSeconds: () => 0, unwritten: () => 0, indexProbes: () => pipeline.probes };
    const metrics = createWriterMetrics(pipeline);
    pipeline.probes = 7;
    metrics.handovers.inc({ direction: 'given' });
    metrics.handovers.inc({ direction: 'taken' }, 2);
    let text = await metrics.registry.metrics();
    expect(text).toMatch(/# TYPE relay_activity_index_probes_total counter\nrelay_activity_index_probes_total 7$/m);
    expect(text).toMatch(/^relay_activity_partition_handovers_total\{direction="given"\} 1$/m);
    expect(text).toMatch(/^relay_activity_partition_handovers_total\{direction="taken"\} 2$/m);
    pipeline.probes = 9;
    text = await metrics.registry.metrics();
    expect(text).toMatch(/^relay_activity_index_probes_total 9$/m);
  });
});
