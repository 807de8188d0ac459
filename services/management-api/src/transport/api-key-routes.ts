import { Router } from 'express';
import type { Request, Response } from 'express';
import type { Logger } from '@relay/logging';
import type { Store } from '@relay/store';
import type { AccountLock } from '../adapters/account-lock';
import { createApiKey, deleteApiKey, listApiKeys, loadApiKey, ownerKeyCount } from '../adapters/api-keys';
import type { ApiKeyInfo } from '../adapters/api-keys';
import { mayManage } from '../domain/roles';
import type { ApiKeyRole } from '../domain/roles';
import { audit } from './audit-trail';
import { accountOf, actorOf, roleOf } from './auth';
import { ApiError, notFound } from './errors';
import { operation } from './operation';

export interface ApiKeyRouteDeps {
  store: Store;
  logger: Logger;
  /** serializes revocations per account across processes (adapters/account-lock) */
  accountLock: AccountLock;
}

/** A key as listed: never its secret or digest. */
export function apiKeyView(k: ApiKeyInfo): Record<string, unknown> {
  return {
    id: k.id,
    prefix: k.prefix,
    role: k.role,
    name: k.name,
    created_by: k.created_by,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
  };
}

const cannotManage = (actor: ApiKeyRole): ApiError =>
  new ApiError(403, 'forbidden', `This API key's role (${actor}) cannot create or revoke owner keys; it needs owner.`);

/**
 * API keys and their roles (docs/management-api.md "API keys"). Admin keys manage every key
 * below owner; owner keys every key. The secret is in the create response only — stored as its
 * digest, never logged. Creating and revoking are audited in the account's history.
 */
export function apiKeyRoutes(deps: ApiKeyRouteDeps): Router {
  const r = Router();
  const { store, logger, accountLock } = deps;

  r.post('/', ...operation('createApiKey'), async (req: Request, res: Response) => {
    const caller = roleOf(req);
    const { role, name } = req.body as { role: ApiKeyRole; name?: string };
    if (!mayManage(caller, role)) throw cannotManage(caller);
    const { secret, key } = await createApiKey(store, accountOf(req), {
      role,
      name: name?.trim() ?? null,
      createdBy: actorOf(req),
    });
    await audit(store, req, {
      action: 'key_created',
      key_id: key.id,
      details: { role, prefix: key.prefix, name: key.name },
    });
    logger.info('api key created', { account_id: key.account_id, key_id: key.id, role, actor: actorOf(req) });
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json({ ...apiKeyView(key), secret });
  });

  r.get('/', ...operation('listApiKeys'), async (req: Request, res: Response) => {
    res.json({ data: (await listApiKeys(store, accountOf(req))).map(apiKeyView) });
  });

  r.delete('/:keyId', ...operation('revokeApiKey'), async (req: Request, res: Response) => {
    const caller = roleOf(req);
    const accountId = accountOf(req);
    // one revocation of the account at a time, in every process: the owner count read below
    // must still hold when the key is deleted
    const key = await accountLock(accountId, async () => {
      const found = await loadApiKey(store, accountId, String(req.params.keyId));
      if (!found) throw notFound('API key');
      if (!mayManage(caller, found.role)) throw cannotManage(caller);
      // an account without an owner key could never change its plan or owner keys again
      if (found.role === 'owner' && (await ownerKeyCount(store, accountId)) <= 1) {
        throw new ApiError(
          409,
          'last_owner_key',
          'This is the last owner key of the account; create another owner key before revoking it.',
        );
      }
      if (!(await deleteApiKey(store, accountId, found.id))) throw notFound('API key');
      return found;
    });
    await audit(store, req, {
      action: 'key_revoked',
      key_id: key.id,
      details: { role: key.role, prefix: key.prefix, name: key.name },
    });
    logger.info('api key revoked', { account_id: accountId, key_id: key.id, role: key.role, actor: actorOf(req) });
    res.status(204).end();
  });
  return r;
}
