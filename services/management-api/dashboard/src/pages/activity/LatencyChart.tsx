import type { DetailRow } from '../../lib/latency';
import { formatMs, latencyPoints, quantile } from '../../lib/latency';
import type { ActivityListed } from '@relay/client';
import { utc } from '../../lib/time';

const W = 640;
const H = 160;
const PAD = { l: 56, r: 12, t: 10, b: 26 };

/**
 * Delivery latency (the delivery's start — arrival, or its resend — → end of the final attempt) of the deliveries of the rows loaded,
 * over their time window. The API has no aggregate for it and the view never loads the whole
 * log, so the chart covers what is on screen — and grows as older pages are loaded.
 */
export function LatencyChart(props: { rows: ActivityListed[]; details: Map<string, DetailRow> }) {
  const loaded = props.rows.map((r) => props.details.get(r.id)).filter((d): d is DetailRow => d !== undefined);
  const points = latencyPoints(loaded);
  const values = points.map((p) => p.ms);
  const p50 = quantile(values, 0.5);
  const p95 = quantile(values, 0.95);
  const max = values.length ? Math.max(...values) : 0;
  const failed = points.filter((p) => p.state === 'failed').length;
  const summary = values.length
    ? `${values.length} deliver${values.length === 1 ? 'y' : 'ies'}: median ${formatMs(p50!)}, 95th percentile ${formatMs(p95!)}, slowest ${formatMs(max)}${failed ? `, ${failed} failed for good` : ''}.`
    : 'No finished deliveries among the rows loaded yet.';
  if (values.length === 0) {
    return (
      <figure class="card chart">
        <figcaption>
          <strong>Delivery latency</strong> — {summary}
        </figcaption>
      </figure>
    );
  }
  const t0 = points[0]!.at;
  const t1 = Math.max(points[points.length - 1]!.at, t0 + 1000);
  const yMax = Math.max(max * 1.1, 10);
  const x = (t: number): number => PAD.l + ((t - t0) / (t1 - t0)) * (W - PAD.l - PAD.r);
  const y = (ms: number): number => H - PAD.b - (ms / yMax) * (H - PAD.t - PAD.b);
  return (
    <figure class="card chart">
      <figcaption>
        <strong>Delivery latency</strong> of the rows loaded — {summary}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Delivery latency chart. ${summary}`}>
        <line x1={PAD.l} y1={H - PAD.b} x2={W - PAD.r} y2={H - PAD.b} class="axis" />
        <line x1={PAD.l} y1={PAD.t} x2={PAD.l} y2={H - PAD.b} class="axis" />
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line x1={PAD.l} x2={W - PAD.r} y1={y(yMax * f)} y2={y(yMax * f)} class="grid-line" />
            <text x={PAD.l - 6} y={y(yMax * f) + 4} text-anchor="end" class="tick">
              {formatMs(yMax * f)}
            </text>
          </g>
        ))}
        {p95 !== null && <line x1={PAD.l} x2={W - PAD.r} y1={y(p95)} y2={y(p95)} class="p95" />}
        {points.map((p) => (
          <circle key={p.deliveryId} cx={x(p.at)} cy={y(p.ms)} r={3.5} class={`pt pt--${p.state}`}>
            <title>{`${utc(p.at)} · ${formatMs(p.ms)} · ${p.state}`}</title>
          </circle>
        ))}
        <text x={PAD.l} y={H - 6} class="tick">
          {utc(t0).slice(11, 19)}
        </text>
        <text x={W - PAD.r} y={H - 6} text-anchor="end" class="tick">
          {utc(t1).slice(11, 19)}
        </text>
      </svg>
    </figure>
  );
}
