import { Counter, Gauge, Registry } from 'prom-client';

export interface WriterMetrics {
  registry: Registry;
  rowsWritten: Counter<'kind'>;
  recordsWritten: Counter;
  /** flushes written, and the seconds they took: what one flush costs as rows spread over more scopes (docs/benchmarks.md "Many endpoints") */
  flushes: Counter;
  flushSeconds: Counter;
  expiredDropped: Counter;
  retentionDropped: Counter;
  /** partitions this writer gave to the next writer (`given`) or was given (`taken`); each costs a settle and a resync */
  handovers: Counter<'direction'>;
  /** wall time of the settles that preceded giving partitions away */
  handoverSettleSeconds: Counter;
}

/**
 * The writer's Prometheus metrics. Lag and unwritten messages are read from the pipeline when
 * scraped; no label carries an endpoint or event id, so the series count is fixed.
 */
export function createWriterMetrics(
  pipeline: { lagSeconds(): number; unwritten(): number; indexProbes(): number },
  registry: Registry = new Registry(),
): WriterMetrics {
  new Gauge({
    name: 'relay_activity_lag_seconds',
    help: 'age of the oldest activity message this writer has taken but not yet written (0 when caught up)',
    registers: [registry],
    collect() {
      this.set(pipeline.lagSeconds());
    },
  });
  new Gauge({
    name: 'relay_activity_unwritten_records',
    help: 'activity records (request rows and attempts) taken from the queue and not yet written: held, ready or being flushed',
    registers: [registry],
    collect() {
      this.set(pipeline.unwritten());
    },
  });
  new Counter({
    name: 'relay_activity_index_probes_total',
    help: 'page counts of an index scope and hour this writer probed in the store (about 2·log2(pages) reads each): after a start, a partition taken or a failed write; about 0 in steady writing',
    registers: [registry],
    collect() {
      // the index writer counts; the counter follows it (it only grows)
      this.reset();
      this.inc(pipeline.indexProbes());
    },
  });
  return {
    registry,
    rowsWritten: new Counter({
      name: 'relay_activity_rows_written_total',
      help: 'activity documents written, by kind: inserted (new rows), updated (rows written again), late_attempts (attempts inserted beside their rows), aggregated (rejections folded into an aggregated row), payloads (accepted payloads kept for resends)',
      labelNames: ['kind'],
      registers: [registry],
    }),
    recordsWritten: new Counter({
      name: 'relay_activity_records_written_total',
      help: 'activity records (request rows and attempts) written; their messages are acknowledged once all their records are',
      registers: [registry],
    }),
    flushes: new Counter({
      name: 'relay_activity_flushes_total',
      help: 'flushes written (each a batch of rows, their index pages and payloads)',
      registers: [registry],
    }),
    flushSeconds: new Counter({
      name: 'relay_activity_flush_seconds_total',
      help: 'wall time of the flushes written, store round trips included',
      registers: [registry],
    }),
    expiredDropped: new Counter({
      name: 'relay_activity_expired_dropped_total',
      help: 'activity records older than the retention period, acknowledged without a write',
      registers: [registry],
    }),
    retentionDropped: new Counter({
      name: 'relay_activity_retention_dropped_partitions_total',
      help: 'hourly activity partitions dropped by retention',
      registers: [registry],
    }),
    handovers: new Counter({
      name: 'relay_activity_partition_handovers_total',
      help: 'activity partitions this writer gave to the next writer (direction="given") or was given (direction="taken", at start too)',
      labelNames: ['direction'],
      registers: [registry],
    }),
    handoverSettleSeconds: new Counter({
      name: 'relay_activity_partition_handover_settle_seconds_total',
      help: 'wall time of the settles before partitions were given away (what this writer held written first)',
      registers: [registry],
    }),
  };
}
