import type { RedisOptions } from 'ioredis';
import type { RedisClient } from '@relay/cache';
import { quotaMonth, usageDailyField, usageDailyKey } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { retryAfterSeconds } from '../../domain/limits/gcra';
import { beforeDeadline } from '../before-deadline';
import type { Limiter, LimitDecision, LimitRequest } from '../../domain/ports';
import { handshakeKey, QUOTA_TTL_SECONDS, quotaKey, rateKey } from './keys';
import { LocalLimiter } from './local-limiter';
import { ADD_QUOTA_LUA, ADMIT_LUA, COUNT_IN_WINDOW_LUA, REFUND_LUA } from './scripts';

/**
 * Options for the gateway's quick Redis connection (the quarantine bound): a command fails at
 * once while disconnected (no offline queue, no retries) and after `timeoutMs` when Redis stops
 * answering, so an outage costs a request at most that long. The limiter and the idempotency keys
 * get a connection of their own with these options and a longer `timeoutMs` (LATE_ANSWER_MS):
 * they decide after their own deadline but still read a late answer.
 */
export function limiterRedisOptions(timeoutMs: number): RedisOptions {
  // auto-pipelining: the EVALSHAs of requests in flight together leave in one write (one syscall
  // for many; the reference measured ~157,000 EVALSHA/s this way)
  return { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: timeoutMs, enableAutoPipelining: true };
}

/**
 * How long the limiter's connection waits for an answer the request stopped waiting for: a
 * script that ran after the request was decided per process is known to have counted, so the
 * unit is not counted twice. Past this, or when the connection drops first, whether it ran is
 * unknown and the per-process count stands (docs/ingest.md "Limits").
 */
export const LATE_ANSWER_MS = 10_000;

export interface RedisLimiterOptions {
  /** the limiter's own connection: `limiterRedisOptions(LATE_ANSWER_MS)` */
  redis: RedisClient;
  /** how long a request waits for Redis before the per-process limiter decides (LIMITER_TIMEOUT_MS) */
  decisionTimeoutMs: number;
  namespace: string;
  logger: Logger;
  /** counts each request the per-process limiter decided (metric relay_ingest_limiter_fallback_total) */
  fallbackCounter: { inc(): void };
  /** after a failed call, Redis is not tried again for this long: a black-holed Redis would cost every request the timeout */
  retryAfterFailureMs?: number;
}

type AdmitReply = [verdict: number, waitMs: number, used: number];
interface LimiterCommands {
  relayAdmit(rate: string, quota: string, daily: string, ...argv: Array<number | string>): Promise<AdmitReply>;
  relayAddQuota(key: string, units: number, ttl: number): Promise<number>;
  relayRefund(quota: string, daily: string, ttl: number, field: string): Promise<number>;
  relayCountInWindow(key: string, windowMs: number): Promise<number>;
}

const MINUTE_MS = 60_000;

/** A late call that failed: whether its script ran is unknown, and the per-process count stands. */
const noAnswer = (): undefined => undefined;

/**
 * Spec step 6 over Redis: one EVALSHA per request (ioredis re-sends the script itself after
 * a Redis restart), so limits agree across gateway instances and survive their restarts. If
 * Redis cannot be reached the gateway keeps accepting under a per-process limiter, logs the
 * switch both ways and counts every request decided that way (docs/ingest.md "Limits").
 */
export function createRedisLimiter(opts: RedisLimiterOptions): Limiter {
  const { redis, namespace, logger } = opts;
  redis.defineCommand('relayAdmit', { numberOfKeys: 3, lua: ADMIT_LUA });
  redis.defineCommand('relayAddQuota', { numberOfKeys: 1, lua: ADD_QUOTA_LUA });
  redis.defineCommand('relayRefund', { numberOfKeys: 2, lua: REFUND_LUA });
  redis.defineCommand('relayCountInWindow', { numberOfKeys: 1, lua: COUNT_IN_WINDOW_LUA });
  // accepted events per endpoint and day (GET /v1/billing/usage/daily), counted in the same script
  const daily = (req: LimitRequest): [string, string] => [
    usageDailyKey(namespace, req.accountId, quotaMonth(req.now)),
    usageDailyField(req.endpointId, req.now),
  ];
  const commands = redis as unknown as LimiterCommands;
  const local = new LocalLimiter();
  // MAC handshake answers counted per process while Redis is unreachable (rare, and small)
  const localHandshakes = new Map<string, number>();
  const retryAfterFailureMs = opts.retryAfterFailureMs ?? 1000;
  let skipUntil = 0;
  let degraded = false;
  let flushing: Promise<void> | null = null;

  const decideLocally = (req: LimitRequest, key: string, err: unknown): LimitDecision => {
    if (!degraded) {
      degraded = true;
      logger.warn('rate limit and quota fall back to per-process counters: Redis unreachable', {
        error: err instanceof Error ? err.message : String(err),
      });
    }
    opts.fallbackCounter.inc();
    return local.admit(req, key);
  };

  /**
   * Adds the units counted per process during an outage to the shared counters, before the
   * first shared decision after it (so that decision sees them): one extra round trip per key,
   * once per outage. Concurrent requests wait for the same flush; a failure rejects them all.
   */
  const flushOwed = (): Promise<void> => {
    flushing ??= (async () => {
      for (const [key, units] of local.owed())
        local.settle(key, units, await commands.relayAddQuota(key, units, QUOTA_TTL_SECONDS));
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  };

  /**
   * The script of a request already decided per process answered after all. If it counted the
   * request, Redis has the unit: the per-process count gives it up (admitted here), or Redis
   * gives it back (refused here). If it refused, it counted nothing and the local decision stands.
   */
  const reconcile = (req: LimitRequest, key: string, decision: LimitDecision, [verdict, , used]: AdmitReply): void => {
    if (verdict !== 0) return;
    if (decision.admitted) {
      local.settle(key, 1, used);
      return;
    }
    const [dailyKey, dailyField] = daily(req);
    commands.relayRefund(key, dailyKey, QUOTA_TTL_SECONDS, dailyField).catch(() => local.refund(key));
  };

  return {
    async admit(req) {
      const key = quotaKey(namespace, req.accountId, req.now);
      if (redis.status !== 'ready') return decideLocally(req, key, new Error(`Redis connection ${redis.status}`));
      if (Date.now() < skipUntil)
        return decideLocally(
          req,
          key,
          new Error(`a call failed under ${retryAfterFailureMs} ms ago; Redis is tried again after that`),
        );
      const [dailyKey, dailyField] = daily(req);
      const call = (async (): Promise<AdmitReply> => {
        if (local.hasOwed()) await flushOwed();
        return commands.relayAdmit(
          rateKey(namespace, req.endpointId, key),
          key,
          dailyKey,
          req.ratePerMinute,
          req.now.getTime(),
          req.monthlyQuota,
          QUOTA_TTL_SECONDS,
          dailyField,
        );
      })();
      let reply: AdmitReply | undefined;
      try {
        reply = await beforeDeadline(call, opts.decisionTimeoutMs);
      } catch (err) {
        skipUntil = Date.now() + retryAfterFailureMs;
        return decideLocally(req, key, err);
      }
      if (reply === undefined) {
        skipUntil = Date.now() + retryAfterFailureMs;
        const decision = decideLocally(req, key, new Error(`no answer within ${opts.decisionTimeoutMs} ms`));
        void call.then((late) => reconcile(req, key, decision, late), noAnswer);
        return decision;
      }
      const [verdict, waitMs, used] = reply;
      local.observe(key, used);
      if (degraded) {
        degraded = false;
        logger.info('rate limit and quota back on Redis');
      }
      if (verdict === 0) return { admitted: true, counter: 'shared' };
      if (verdict === 2) return { admitted: false, limit: 'quota' };
      return { admitted: false, limit: 'rate', retryAfterSeconds: retryAfterSeconds(waitMs) };
    },

    async admitHandshake(endpointId, perMinute, now) {
      const minute = Math.floor(now.getTime() / MINUTE_MS);
      const key = handshakeKey(namespace, endpointId, minute);
      let count: number;
      try {
        count = await commands.relayCountInWindow(key, MINUTE_MS);
      } catch {
        for (const old of localHandshakes.keys()) if (!old.endsWith(`:${minute}`)) localHandshakes.delete(old);
        count = (localHandshakes.get(key) ?? 0) + 1;
        localHandshakes.set(key, count);
      }
      if (count <= perMinute) return { admitted: true };
      return {
        admitted: false,
        retryAfterSeconds: Math.max(1, Math.ceil(((minute + 1) * MINUTE_MS - now.getTime()) / 1000)),
      };
    },

    // The second round trip happens only here, on the failure path after a counted request.
    async refund(req, decision) {
      const key = quotaKey(namespace, req.accountId, req.now);
      if (decision.counter === 'shared') {
        try {
          const [dailyKey, dailyField] = daily(req);
          await commands.relayRefund(key, dailyKey, QUOTA_TTL_SECONDS, dailyField);
          return;
        } catch (err) {
          logger.warn('quota refund deferred: Redis unreachable', { error: (err as Error).message });
        }
      }
      local.refund(key);
    },
  };
}
