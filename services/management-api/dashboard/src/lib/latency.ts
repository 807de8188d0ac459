import type { ActivityRow } from '@relay/client';

/**
 * One delivery's latency: from its own start to the end of its last attempt. A first delivery
 * starts when the request arrived, a resent one when it was resent (the API's `started_at`), so
 * a resend days later is plotted when it happened and as long as it took.
 */
export interface LatencyPoint {
  /** the delivery's start */
  at: number;
  ms: number;
  state: 'delivered' | 'failed';
  eventId: string;
  targetId: string;
  deliveryId: string;
}

type Delivery = ActivityRow['deliveries'][number];

/** What the chart reads of a row's detail (`GET /v1/activity/:id`). */
export interface DetailRow extends Pick<ActivityRow, 'id' | 'received_at'> {
  deliveries: Array<
    Pick<Delivery, 'delivery_id' | 'target_id' | 'state' | 'started_at'> & {
      attempts: Array<Pick<Delivery['attempts'][number], 'attempted_at' | 'duration_ms'>>;
    }
  >;
}

export function latencyPoints(rows: DetailRow[]): LatencyPoint[] {
  const points: LatencyPoint[] = [];
  for (const row of rows) {
    for (const d of row.deliveries) {
      const last = d.attempts[d.attempts.length - 1];
      // only deliveries that were sent and ended: a transformation's drop or failure sent nothing
      if (!last || (d.state !== 'delivered' && d.state !== 'failed')) continue;
      const at = Date.parse(d.started_at);
      const ms = Math.max(0, Date.parse(last.attempted_at) + last.duration_ms - at);
      points.push({ at, ms, state: d.state, eventId: row.id, targetId: d.target_id, deliveryId: d.delivery_id });
    }
  }
  return points.sort((a, b) => a.at - b.at);
}

/** The q-quantile (0..1) by nearest rank; null for no values. */
export function quantile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}
