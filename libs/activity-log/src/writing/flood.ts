import { createHash } from 'node:crypto';
import type { ActivityRequestV1 } from '@relay/contracts';

/** Distinct (endpoint, outcome, reason) kinds counted per minute. */
const MAX_KINDS = 50_000;

export interface Fold {
  /** digest of account, endpoint, outcome, reason and minute: the aggregated row is `agg_` + minute + digest */
  digest: string;
  request: ActivityRequestV1;
  /** true for the first fold into this row seen by this process: its index entry is written */
  first: boolean;
}

/**
 * Folds floods of identical rejections into aggregated rows (spec "Activity record": the
 * source IP is shown for rows that are not aggregated). Per endpoint, outcome, reason and UTC
 * minute of arrival, the first `keep` rejections keep rows of their own; the rest fold into one
 * row for that minute with a count, first and last time seen, and no source IP. So a flood
 * costs at most `keep` + 1 rows per kind per minute, whatever its rate.
 *
 * Counting happens in the writer's memory: after a restart, or with several writers, each
 * counts on its own (at most `keep` more own rows per writer and minute).
 */
export class FloodFolder {
  private minute = '';
  private counts = new Map<string, number>();
  private previous = new Map<string, number>();

  constructor(private readonly keep: number) {}

  /** null: the request keeps its own row. */
  fold(request: ActivityRequestV1): Fold | null {
    // a test request is the owner's (the management API bounds their rate): it keeps its row in
    // the Test group instead of joining a count of senders' rejections
    if (request.outcome === 'ACCEPTED' || request.test) return null;
    // A 503 delivery_queue_unavailable may still be delivered (spec: a confirm that timed out
    // can follow a publish the broker took): its attempts then need this event's own row. And
    // such requests passed authentication and limits — traffic, not a flood to fold.
    if (request.outcome === 'DELIVERY_QUEUE_UNAVAILABLE') return null;
    // a quarantined request's row is what a re-run starts from (its payload is kept under its
    // id); the account's hourly quarantine bound, not folding, bounds how many there are
    if (request.quarantine === 'kept') return null;
    const minute = request.received_at.slice(0, 16);
    const counts = this.countsFor(minute);
    if (!counts) return null; // older than the two minutes remembered: a late straggler keeps its row
    const key = `${request.account_id}\n${request.endpoint_id}\n${request.outcome}\n${request.reason ?? ''}\n${minute}`;
    const digest = createHash('sha256').update(key).digest('hex').slice(0, 24);
    // Past MAX_KINDS distinct kinds in one minute, new kinds fold at once and are not counted, so
    // memory stays bounded; each such fold writes an index entry (the reader shows one per row).
    if (!counts.has(key) && counts.size >= MAX_KINDS) return { digest, request, first: true };
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    if (n <= this.keep) return null;
    return { digest, request, first: n === this.keep + 1 };
  }

  /** The counters of this minute or the one before; older minutes are forgotten (bounded memory). */
  private countsFor(minute: string): Map<string, number> | null {
    if (minute > this.minute) {
      this.previous = minute === nextMinute(this.minute) ? this.counts : new Map();
      this.counts = new Map();
      this.minute = minute;
    }
    if (minute === this.minute) return this.counts;
    return minute === previousMinute(this.minute) ? this.previous : null;
  }
}

const minuteMs = (minute: string): number => Date.parse(`${minute}:00.000Z`);
const nextMinute = (minute: string): string =>
  minute ? new Date(minuteMs(minute) + 60_000).toISOString().slice(0, 16) : '';

function previousMinute(minute: string): string {
  return new Date(minuteMs(minute) - 60_000).toISOString().slice(0, 16);
}

/** The start of the UTC minute of an ISO time: an aggregated row's time. */
export const minuteStart = (iso: string): Date => new Date(`${iso.slice(0, 16)}:00.000Z`);

/** The folds of one flush into one aggregated row. */
export interface FoldGroup {
  digest: string;
  request: Fold['request'];
  first: boolean;
  count: number;
  first_seen: Date;
  last_seen: Date;
}

export function groupFolds(folds: Fold[]): FoldGroup[] {
  const groups = new Map<string, FoldGroup>();
  for (const f of folds) {
    const at = new Date(f.request.received_at);
    const g = groups.get(f.digest);
    if (!g) {
      groups.set(f.digest, {
        digest: f.digest,
        request: f.request,
        first: f.first,
        count: 1,
        first_seen: at,
        last_seen: at,
      });
      continue;
    }
    g.count += 1;
    g.first ||= f.first;
    if (at < g.first_seen) g.first_seen = at;
    if (at > g.last_seen) g.last_seen = at;
  }
  return [...groups.values()];
}
