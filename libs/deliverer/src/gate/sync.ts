import type { CacheChange } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { storeBreakerState } from '@relay/store';
import type { BreakerStateRecord, Store, TargetRecord } from '@relay/store';
import type { BreakerView } from './breaker-redis';

/** Where a breaker state is kept beside Redis: the target's stored copy, then every cache told. */
export interface BreakerStateWriter {
  /** writes `view` as the target's breaker_state unless a later one is stored; announces the change */
  write(target: { id: string; endpoint_id: string }, view: BreakerView): Promise<void>;
}

/**
 * The stored copy is what the API shows and what makes a deliverer's cached target ask Redis
 * before sending. A copy is never replaced by an older transition (`since` is Redis' clock, the
 * same for every writer); a view with no state in Redis (since 0: its hash expired while
 * closed) always writes closed.
 */
export function createBreakerStateWriter(
  store: Store,
  announce: (change: CacheChange) => Promise<unknown>,
  forget?: (targetId: string) => void,
): BreakerStateWriter {
  return {
    async write(target, view) {
      const record: BreakerStateRecord = {
        state: view.state,
        since: new Date(view.since),
        reason: view.reason,
        seq: view.seq,
      };
      await storeBreakerState(store, target.id, record);
      forget?.(target.id);
      await announce({ scope: 'target', id: target.id, endpoint_id: target.endpoint_id });
    },
  };
}

/** A transition this process made, as the account's alerts will receive it. */
export interface BreakerTransition {
  target: TargetRecord;
  view: BreakerView;
}

/**
 * Every transition a deliverer made goes through here once (the Lua transition picked the one
 * caller that made it): metrics, the log, and the account's event.
 */
export function announceTransition(
  t: BreakerTransition,
  meter: { breakerTransition(to: string): void },
  logger: Logger,
): void {
  meter.breakerTransition(t.view.state);
  logger.warn('target breaker changed', {
    target_id: t.target.id,
    endpoint_id: t.target.endpoint_id,
    account_id: t.target.account_id,
    state: t.view.state,
    reason: t.view.reason,
  });
}
