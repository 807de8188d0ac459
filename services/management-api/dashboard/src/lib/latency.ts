/** One delivery's latency: from the request's arrival to the end of its last attempt. */
export interface LatencyPoint {
  at: number;
  ms: number;
  state: 'delivered' | 'retrying' | 'failed';
  eventId: string;
  targetId: string;
}

export interface DetailRow {
  id: string;
  received_at: string;
  deliveries: Array<{
    target_id: string;
    state: 'delivered' | 'retrying' | 'failed';
    attempts: Array<{ attempted_at: string; duration_ms: number }>;
  }>;
}

export function latencyPoints(rows: DetailRow[]): LatencyPoint[] {
  const points: LatencyPoint[] = [];
  for (const row of rows) {
    const at = Date.parse(row.received_at);
    for (const d of row.deliveries) {
      const last = d.attempts[d.attempts.length - 1];
      if (!last || d.state === 'retrying') continue;
      const ms = Math.max(0, Date.parse(last.attempted_at) + last.duration_ms - at);
      points.push({ at, ms, state: d.state, eventId: row.id, targetId: d.target_id });
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
