import { deliveryOrderOf } from '@relay/contracts';
import type { ActivityAttemptV1, ActivityMessage, ActivityRequestV1 } from '@relay/contracts';

/** Everything the writer has for one event id in one flush. */
export interface EventGroup<T> {
  event_id: string;
  request: ActivityRequestV1 | null;
  attempts: ActivityAttemptV1[];
  /** one per message, resolved when the flush that wrote it succeeded */
  tokens: T[];
  /** time of the oldest message (ms), for the activity lag */
  oldest_ms: number;
}

/**
 * Holds an accepted request's row briefly so that the first attempt of each of its
 * deliveries, which usually follows within milliseconds, is written with it: one insert
 * instead of an insert and an update per delivery (issue: "fewer writes per event").
 * A row is released when every delivery has reported an attempt, when it has waited
 * `holdMs`, or when more than `maxHeld` rows are held (oldest first), so memory and delay
 * stay bounded. A first attempt that arrives before its row is held the same way; later
 * attempts (retries) are not held.
 */
export class Holding<T> {
  private readonly held = new Map<string, { group: EventGroup<T>; since: number; deliveries: Set<string> }>();

  constructor(
    private readonly holdMs: number,
    private readonly maxHeld: number,
  ) {}

  get size(): number {
    return this.held.size;
  }

  /** Oldest message time among held rows (ms), or null. */
  oldest(): number | null {
    let min: number | null = null;
    for (const h of this.held.values()) if (min === null || h.group.oldest_ms < min) min = h.group.oldest_ms;
    return min;
  }

  /**
   * Takes a message. Returns the groups that became ready because of it (the message's own
   * group when it is not held, a held group it completed, or the oldest held group pushed
   * out by the bound).
   */
  add(message: ActivityMessage, token: T, now: number): EventGroup<T>[] {
    const at = Date.parse(message.type === 'relay.activity.request.v1' ? message.received_at : message.attempted_at);
    const h = this.held.get(message.event_id);
    if (h) {
      if (message.type === 'relay.activity.request.v1') h.group.request = message;
      else {
        h.group.attempts.push(message);
        h.deliveries.add(message.delivery_id);
      }
      h.group.tokens.push(token);
      h.group.oldest_ms = Math.min(h.group.oldest_ms, at);
      if (!this.complete(h.group, h.deliveries)) return [];
      this.held.delete(message.event_id);
      return [h.group];
    }
    const group: EventGroup<T> = {
      event_id: message.event_id,
      request: message.type === 'relay.activity.request.v1' ? message : null,
      attempts: message.type === 'relay.activity.attempt.v1' ? [message] : [],
      tokens: [token],
      oldest_ms: at,
    };
    // A first attempt can overtake its request row: the gateway sends the row after its 202,
    // gathered with others for a few ms, while a deliverer may already have delivered. Held,
    // it waits for the row like a row waits for it; written alone, the row would need an
    // update when the request came (two collection scans on FerretDB). A resend's first attempt
    // is not held: its row was written long ago, nothing will join it.
    const attemptFirst =
      message.type === 'relay.activity.attempt.v1' &&
      message.attempt === 1 &&
      deliveryOrderOf(message.delivery_id) === '';
    if (!attemptFirst && (!group.request || group.request.outcome !== 'ACCEPTED' || group.request.target_count === 0))
      return [group];
    this.held.set(message.event_id, {
      group,
      since: now,
      deliveries: new Set(attemptFirst ? [message.delivery_id] : []),
    });
    if (this.held.size <= this.maxHeld) return [];
    const [oldestId, oldest] = this.held.entries().next().value!;
    this.held.delete(oldestId);
    return [oldest.group];
  }

  /** Groups held for `holdMs` or longer (all of them with `all`; with `only`, all those it takes). */
  release(now: number, all = false, only?: (group: EventGroup<T>) => boolean): EventGroup<T>[] {
    const out: EventGroup<T>[] = [];
    for (const [id, h] of this.held) {
      if (!all && now - h.since < this.holdMs) break; // insertion order = age order
      if (only && !only(h.group)) continue;
      this.held.delete(id);
      out.push(h.group);
    }
    return out;
  }

  private complete(group: EventGroup<T>, deliveries: Set<string>): boolean {
    return group.request !== null && deliveries.size >= group.request.target_count;
  }
}
