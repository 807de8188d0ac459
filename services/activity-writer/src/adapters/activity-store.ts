import type { AnyBulkWriteOperation } from 'mongodb';
import type { ActivityAttemptV1, ActivityMessage } from '@relay/contracts';
import type { ActivityDoc, Store } from '@relay/store';
import { deliveryState, statusOf } from '../domain/status';

/**
 * Every update is an idempotent `$set` keyed by event id, delivery id and attempt number,
 * so redelivered messages and several writers in parallel converge on the same document.
 * `rev` counts writes; the derived `status` is then set only if `rev` did not move since
 * it was read (optimistic concurrency), otherwise it is derived again.
 */
export function toOperation(m: ActivityMessage): AnyBulkWriteOperation<ActivityDoc> {
  if (m.type === 'relay.activity.request.v1') {
    return {
      updateOne: {
        filter: { _id: m.event_id },
        update: {
          $set: {
            account_id: m.account_id,
            endpoint_id: m.endpoint_id,
            received_at: new Date(m.received_at),
            method: m.method,
            source_ip: m.source_ip,
            outcome: m.outcome,
            reason: m.reason,
            target_count: m.target_count,
            test: m.test,
          },
          $inc: { rev: 1 },
        },
        upsert: true,
      },
    };
  }
  return { updateOne: { filter: { _id: m.event_id }, update: attemptUpdate(m), upsert: true } };
}

function attemptUpdate(a: ActivityAttemptV1): Record<string, unknown> {
  const base = `deliveries.${a.delivery_id}`;
  return {
    $set: {
      account_id: a.account_id,
      endpoint_id: a.endpoint_id,
      [`${base}.delivery_id`]: a.delivery_id,
      [`${base}.target_id`]: a.target_id,
      [`${base}.target_kind`]: a.target_kind,
      [`${base}.attempts.${a.attempt}`]: {
        attempt: a.attempt,
        attempted_at: new Date(a.attempted_at),
        state: a.state,
        status_code: a.status_code,
        duration_ms: a.duration_ms,
        error: a.error,
        next_attempt_at: a.next_attempt_at ? new Date(a.next_attempt_at) : null,
      },
    },
    $inc: { rev: 1 },
  };
}

export interface ActivityWriter {
  write(messages: ActivityMessage[]): Promise<void>;
}

export function createActivityWriter(store: Store): ActivityWriter {
  const coll = store.activity.collection;
  async function deriveStatus(eventId: string): Promise<void> {
    for (let tries = 0; tries < 5; tries++) {
      const doc = await coll.findOne({ _id: eventId } as never) as unknown as (ActivityDoc & { deliveries?: Record<string, any> }) | null;
      if (!doc) return;
      const status = statusOf(doc as never);
      const states: Record<string, unknown> = {};
      for (const [id, d] of Object.entries(doc.deliveries ?? {})) states[`deliveries.${id}.state`] = deliveryState(d.attempts);
      const res = await coll.updateOne({ _id: eventId, rev: doc.rev } as never, { $set: { status, ...states } });
      if (res.matchedCount === 1) return;
    }
  }
  return {
    async write(messages) {
      if (messages.length === 0) return;
      await coll.bulkWrite(messages.map(toOperation) as never, { ordered: false });
      const ids = [...new Set(messages.map((m) => m.event_id))];
      await Promise.all(ids.map(deriveStatus));
    },
  };
}
