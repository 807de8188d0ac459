import { createHash, randomBytes } from 'node:crypto';
import type { Sealer } from '../domain/secret-sealing';
import type { RedisClient } from '@relay/cache';

/**
 * Dashboard sign-in sessions, kept in Redis (docs/dashboard.md "Security of the session").
 *
 * The browser holds only a random 256-bit session id. Redis holds, under the id's SHA-256 (so a
 * Redis dump yields no usable cookie), who signed in — an API key sealed with SECRETS_KEYS (so it
 * yields no usable key either), or a member's id —, the session's CSRF token and its absolute
 * expiry. The key or member is kept, not the account or role, because every request then looks
 * them up in the store as a bearer key is: a revoked key or a removed member ends its sessions
 * at once, and the role applies as it is now.
 */
export type SignedIn = { apiKey: string } | { memberId: string };

export type Session = SignedIn & {
  csrfToken: string;
  /** ms since the epoch; the session ends then whatever its use */
  expiresAt: number;
};

export interface SessionStore {
  create(who: SignedIn): Promise<{ id: string; session: Session }>;
  /** the live session, its idle time reset; null for an unknown, expired or unreadable id */
  find(id: string): Promise<Session | null>;
  destroy(id: string): Promise<void>;
}

export interface SessionTimes {
  /** a session unused this long ends */
  idleMs: number;
  /** a session ends this long after sign-in, however much it is used */
  absoluteMs: number;
}

interface StoredSession {
  /** the sealed API key, or absent for a member's session */
  key?: string;
  member?: string;
  csrf: string;
  exp: number;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/; // 32 random bytes, base64url

export function createSessionStore(
  redis: RedisClient,
  namespace: string,
  box: Sealer,
  times: SessionTimes,
  now: () => number = Date.now,
): SessionStore {
  const keyOf = (id: string): string => `${namespace}:session:${createHash('sha256').update(id).digest('hex')}`;
  const ttlOf = (exp: number): number => Math.max(1, Math.min(times.idleMs, exp - now()));
  return {
    async create(who) {
      const id = randomBytes(32).toString('base64url');
      const session: Session = {
        ...who,
        csrfToken: randomBytes(32).toString('base64url'),
        expiresAt: now() + times.absoluteMs,
      };
      const stored: StoredSession = {
        ...('apiKey' in who ? { key: box.encrypt(who.apiKey) } : { member: who.memberId }),
        csrf: session.csrfToken,
        exp: session.expiresAt,
      };
      await redis.set(keyOf(id), JSON.stringify(stored), 'PX', ttlOf(session.expiresAt));
      return { id, session };
    },
    async find(id) {
      if (!ID_PATTERN.test(id)) return null;
      const raw = await redis.get(keyOf(id));
      if (!raw) return null;
      let stored: StoredSession;
      let who: SignedIn;
      try {
        stored = JSON.parse(raw) as StoredSession;
        who = typeof stored.member === 'string' ? { memberId: stored.member } : { apiKey: box.decrypt(stored.key!) };
      } catch {
        // sealed under a key no longer configured, or not ours: the session is over
        await redis.del(keyOf(id));
        return null;
      }
      if (stored.exp <= now()) {
        await redis.del(keyOf(id));
        return null;
      }
      await redis.pexpire(keyOf(id), ttlOf(stored.exp));
      return { ...who, csrfToken: stored.csrf, expiresAt: stored.exp };
    },
    async destroy(id) {
      if (ID_PATTERN.test(id)) await redis.del(keyOf(id));
    },
  };
}
