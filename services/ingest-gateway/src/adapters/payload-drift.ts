import { driftKey } from '@relay/contracts';
import type { AccountEventInput } from '@relay/contracts';
import type { RedisClient } from '@relay/cache';
import { diffShapes, shapeOf, shapeRecord } from '@relay/endpoints';
import type { Shape } from '@relay/endpoints';
import type { Logger } from '@relay/logging';
import type { DriftLearner, DriftSample } from '../domain/ports';

/** Fields of one endpoint's drift hash: shapes seen and baselines together (docs/contracts.md "Drift"). */
export const MAX_DRIFT_FIELDS = 64;
/** an endpoint whose events stopped coming forgets its shapes after this long without a new one */
export const DRIFT_TTL_MS = 30 * 86_400_000;
/**
 * Events whose shape one gateway process learns per second, all endpoints together: a shape costs
 * tens of µs of the event loop (bench/payload-shape.js), so under load most events are skipped
 * and a new shape is learned when it recurs.
 */
export const DRIFT_SAMPLES_PER_SECOND = 100;
/** characters of one list of field paths in the account event's detail */
const DETAIL_LIST_LENGTH = 480;

/*
 * One round trip for a shape: known → 0; the hash full → 3; else the shape is recorded as seen,
 * and the event type's baseline is set (first shape: 1) or returned to diff against (2).
 */
const LEARN_LUA = `
local seen = 'k:' .. ARGV[1] .. ':' .. ARGV[2]
if redis.call('HEXISTS', KEYS[1], seen) == 1 then return {0} end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return {3} end
redis.call('HSET', KEYS[1], seen, '1')
redis.call('PEXPIRE', KEYS[1], ARGV[5])
local b = 'b:' .. ARGV[1]
local base = redis.call('HGET', KEYS[1], b)
if not base then
  redis.call('HSET', KEYS[1], b, ARGV[3])
  return {1}
end
return {2, base}`;

interface Commands {
  relayDriftLearn(
    key: string,
    eventType: string,
    id: string,
    shape: string,
    maxFields: number,
    ttlMs: number,
  ): Promise<[number, string?]>;
}

const listOf = (paths: string[]): string => {
  const text = paths.join(', ');
  return text.length > DETAIL_LIST_LENGTH ? `${text.slice(0, DETAIL_LIST_LENGTH - 1)}…` : text;
};

/**
 * Learns the payload shapes of preset endpoints off the accept path: `learn` returns at once and
 * the shape is computed and compared after the answer was sent, for at most `samplesPerSecond`
 * events a second (DRIFT_SAMPLES_PER_SECOND); the others are not looked at. A shape not seen before for its
 * endpoint and event type, other than the first (the baseline), publishes one `payload_drift`
 * account event naming the fields added, removed and retyped against the baseline. Redis or the
 * broker unavailable: the shape is not learned (logged), the event was accepted all the same.
 */
export function createDriftLearner(opts: {
  redis: RedisClient;
  namespace: string;
  logger: Logger;
  publish: (event: AccountEventInput) => Promise<void>;
  samplesPerSecond?: number;
  /** ms since the epoch */
  now?: () => number;
}): DriftLearner & { settled(): Promise<void> } {
  const perSecond = opts.samplesPerSecond ?? DRIFT_SAMPLES_PER_SECOND;
  const now = opts.now ?? Date.now;
  let second = 0;
  let taken = 0;
  opts.redis.defineCommand('relayDriftLearn', { numberOfKeys: 1, lua: LEARN_LUA });
  const commands = opts.redis as unknown as Commands;
  const pending = new Set<Promise<void>>();

  const observe = async (s: DriftSample): Promise<void> => {
    const { shape } = shapeOf(s.data);
    const record = shapeRecord(shape);
    const eventType = s.eventType ?? '*';
    const [state, base] = await commands.relayDriftLearn(
      driftKey(opts.namespace, s.endpointId),
      eventType,
      record.id,
      record.text,
      MAX_DRIFT_FIELDS,
      DRIFT_TTL_MS,
    );
    if (state !== 2 || base === undefined) return;
    const diff = diffShapes(new Map(JSON.parse(base) as [string, string][]) as Shape, shape);
    await opts.publish({
      kind: 'payload_drift',
      account_id: s.accountId,
      endpoint_id: s.endpointId,
      at: s.at.toISOString(),
      detail: {
        event_type: eventType.slice(0, 200),
        event_id: s.eventId,
        added: listOf(diff.added),
        removed: listOf(diff.removed),
        retyped: listOf(diff.retyped),
        added_count: diff.added.length,
        removed_count: diff.removed.length,
        retyped_count: diff.retyped.length,
      },
    });
  };

  return {
    learn(sample) {
      const current = Math.floor(now() / 1000);
      if (current !== second) [second, taken] = [current, 0];
      if (taken >= perSecond) return;
      taken += 1;
      const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => observe(sample))
        .catch((err: Error) => {
          opts.logger.warn('payload shape not learned', { endpoint_id: sample.endpointId, error: err.message });
        })
        .finally(() => pending.delete(done));
      pending.add(done);
    },
    async settled() {
      await Promise.all([...pending]);
    },
  };
}
