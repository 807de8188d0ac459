import type { Request } from 'express';
import type { CacheChange } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { EndpointRecord, Store } from '@relay/store';
import { loadEndpoint } from '../adapters/endpoint-store';
import { endpointView } from '../domain/endpoint-view';
import type { Sealer } from '../domain/secret-sealing';
import { accountOf, roleOf } from './auth';
import type { EndpointLock } from './endpoint-lock';
import { notFound } from './errors';

export interface EndpointRouteDeps {
  store: Store;
  /** seals secrets before they are stored (@relay/secrets SecretBox) */
  secrets: Sealer;
  logger: Logger;
  publicBaseUrl: string;
  now(): Date;
  /** serializes changes to one endpoint (transport/endpoint-lock) */
  lock: EndpointLock;
  /** tells every gateway and deliverer to drop its cached copy (adapters/invalidation) */
  announceChange(change: CacheChange): Promise<void>;
  /** deletes a deleted CLI session target's backlog on the broker (docs/cli.md "The backlog") */
  dropCliBacklog(targetId: string): Promise<void>;
}

/**
 * Deletes the backlogs of CLI session targets that were just deleted. Best effort: a backlog left
 * behind is dropped by its own expiry.
 */
export async function dropCliBacklogs(
  deps: Pick<EndpointRouteDeps, 'dropCliBacklog' | 'logger'>,
  targets: readonly { id: string; kind: string }[],
): Promise<void> {
  for (const t of targets)
    if (t.kind === 'cli')
      await deps
        .dropCliBacklog(t.id)
        .catch((err: Error) =>
          deps.logger.warn('CLI backlog not deleted; it expires on its own', { target_id: t.id, error: err.message }),
        );
}

/** The caller's endpoint named in the path, or 404 (another account's endpoint is not found either). */
export async function endpointOf(deps: EndpointRouteDeps, req: Request): Promise<EndpointRecord> {
  const endpoint = await loadEndpoint(deps.store, accountOf(req), String(req.params.endpointId));
  if (!endpoint) throw notFound('Endpoint');
  return endpoint;
}

/** The endpoint as the caller may see it: secrets redacted, and no hint of them for a viewer key. */
export function viewOf(deps: EndpointRouteDeps, endpoint: EndpointRecord, req: Request): Record<string, unknown> {
  return endpointView(endpoint, {
    publicBaseUrl: deps.publicBaseUrl,
    secrets: deps.secrets,
    now: deps.now(),
    secretHints: roleOf(req) !== 'viewer',
  });
}
