import { createHash, randomBytes } from 'node:crypto';
import type { RedisClient } from '@relay/cache';
import type { Sealer } from '../domain/secret-sealing';

/**
 * A sign-in between the redirect to the identity provider and its return: the PKCE verifier and
 * nonce it will be checked with, the account it is for and the invitation it accepts. Kept in
 * Redis under the SHA-256 of its `state`, sealed with SECRETS_KEYS, for `ttlMs`, and taken once
 * (GETDEL): a replayed callback finds nothing.
 */
export interface SignInAttempt {
  accountId: string;
  codeVerifier: string;
  nonce: string;
  /** the invitation token this sign-in accepts; null for a member signing in again */
  invitation: string | null;
}

export interface SignInAttempts {
  /** stores the attempt and returns its `state` (43 random characters) */
  begin(attempt: SignInAttempt): Promise<string>;
  /** the attempt of this state, once; null when unknown, expired or already taken */
  take(state: string): Promise<SignInAttempt | null>;
}

export const random43 = (): string => randomBytes(32).toString('base64url');

export function createSignInAttempts(
  redis: RedisClient,
  namespace: string,
  box: Sealer,
  ttlMs: number,
): SignInAttempts {
  const keyOf = (state: string): string => `${namespace}:signin:${createHash('sha256').update(state).digest('hex')}`;
  return {
    async begin(attempt) {
      const state = random43();
      await redis.set(keyOf(state), box.encrypt(JSON.stringify(attempt)), 'PX', ttlMs);
      return state;
    },
    async take(state) {
      if (!/^[A-Za-z0-9_-]{43}$/.test(state)) return null;
      const sealed = await redis.getdel(keyOf(state));
      if (!sealed) return null;
      try {
        return JSON.parse(box.decrypt(sealed)) as SignInAttempt;
      } catch {
        return null; // sealed under a key no longer configured: the attempt is void
      }
    },
  };
}
