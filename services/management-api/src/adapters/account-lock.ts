import { randomBytes } from 'node:crypto';
import type { RedisClient } from '@relay/cache';

/**
 * Runs `fn` while holding the account's key lock, across every management-API process. Revoking
 * an owner key reads how many owner keys are left and then deletes one; two revocations of the
 * last two owner keys would otherwise both read "two" and leave the account with none, which
 * could then never change its plan or owner keys again. The store cannot make that check and
 * delete one step (FerretDB makes no update conditional on another document), so the lock does.
 */
export type AccountLock = <T>(accountId: string, fn: () => Promise<T>) => Promise<T>;

export interface AccountLockOptions {
  /** how long a holder keeps the lock at most: a process that dies holding it frees it then */
  ttlMs: number;
  /** pause between attempts to take a lock someone holds */
  retryMs: number;
}

const DEFAULTS: AccountLockOptions = { ttlMs: 10_000, retryMs: 25 };

/** Deletes the lock only if this holder still owns it (it may have expired and been taken since). */
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

export function createAccountLock(
  redis: RedisClient,
  namespace: string,
  opts: Partial<AccountLockOptions> = {},
): AccountLock {
  const { ttlMs, retryMs } = { ...DEFAULTS, ...opts };
  return async (accountId, fn) => {
    const key = `${namespace}:lock:account-keys:${accountId}`;
    const token = randomBytes(16).toString('hex');
    // a holder frees the lock within ttlMs at the latest, so waiting a little longer always ends
    const giveUpAt = Date.now() + ttlMs + 1000;
    while ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') {
      if (Date.now() > giveUpAt)
        throw new Error(`the key lock of account ${accountId} stayed taken for ${ttlMs + 1000} ms`);
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
    try {
      return await fn();
    } finally {
      await redis.eval(RELEASE, 1, key, token);
    }
  };
}
