import { Router } from 'express';
import type { Request, Response } from 'express';
import type { FieldError } from '@relay/contracts';
import { routingFormatProblem } from '@relay/endpoints';
import type { PayloadFormat } from '@relay/endpoints';
import { routedTargetIds, targetsOfEndpoint } from '@relay/store';
import type { Store } from '@relay/store';
import { createEndpoint, deleteEndpoint, listEndpoints, updateEndpoint } from '../adapters/endpoint-store';
import { auditActionsFor } from '../domain/audit';
import { validateEndpointInput } from '../domain/endpoint-input';
import { settingsOf } from '../domain/endpoint-settings';
import type { EndpointSettings } from '../domain/endpoint-settings';
import { openerOf, sealCaptcha, sealInboundAuth } from '../domain/secret-sealing';
import type { Sealer } from '../domain/secret-sealing';
import { checkCombination, mergeSettings } from '../domain/settings-combination';
import { audit, settingsAuditDetails } from './audit-trail';
import { accountOf, actorOf } from './auth';
import { dropCliBacklogs, endpointOf, viewOf } from './endpoint-common';
import type { EndpointRouteDeps } from './endpoint-common';
import { conflict, invalid } from './errors';
import { checked, operation } from './operation';

/** Secrets are sealed before anything is written; nothing below this sees them in clear again. */
function sealed<T extends Partial<EndpointSettings>>(settings: T, box: Sealer): T {
  const out = { ...settings };
  if (out.inbound_auth !== undefined) out.inbound_auth = sealInboundAuth(out.inbound_auth, box);
  if (out.captcha !== undefined) out.captcha = sealCaptcha(out.captcha, box);
  return out;
}

/**
 * Endpoints and their settings (spec "Resources / Endpoint"). A PATCH replaces each setting it
 * names as a whole (no deep merge) and is validated together with the stored others; secrets
 * it keeps are named with `{ "keep": <slot> }` (domain/secret-keep.ts).
 */
export function endpointRoutes(deps: EndpointRouteDeps): Router {
  const r = Router();
  const { store, logger } = deps;

  r.post('/', ...operation('createEndpoint', { reportWithHandler: true }), async (req: Request, res: Response) => {
    const sent = checked(req, validateEndpointInput(req.body, 'create', null));
    const { merged } = mergeSettings(null, sent);
    const combination = checkCombination(merged, sent);
    if (combination.length) throw invalid(combination);
    const endpoint = await createEndpoint(store, accountOf(req), sealed(merged, deps.secrets));
    await audit(store, req, {
      action: 'endpoint_created',
      endpoint_id: endpoint.id,
      details: { name: endpoint.name, ...settingsAuditDetails(Object.keys(sent)) },
    });
    logger.info('endpoint created', { endpoint_id: endpoint.id, account_id: endpoint.account_id, actor: actorOf(req) });
    res.status(201).json(viewOf(deps, endpoint, req));
  });

  r.get('/', ...operation('listEndpoints'), async (req: Request, res: Response) => {
    const endpoints = await listEndpoints(store, accountOf(req));
    res.json({ data: endpoints.map((e) => viewOf(deps, e, req)) });
  });

  r.get('/:endpointId', ...operation('getEndpoint'), async (req: Request, res: Response) => {
    res.json(viewOf(deps, await endpointOf(deps, req), req));
  });

  r.patch(
    '/:endpointId',
    ...operation('updateEndpoint', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const id = String(req.params.endpointId);
      res.json(await deps.lock(id, () => patchEndpoint(deps, req)));
    },
  );

  r.delete('/:endpointId', ...operation('deleteEndpoint'), async (req: Request, res: Response) => {
    await deps.lock(String(req.params.endpointId), async () => {
      const current = await endpointOf(deps, req);
      const targets = await targetsOfEndpoint(store, current.id);
      await deleteEndpoint(store, current.id);
      await audit(store, req, { action: 'endpoint_deleted', endpoint_id: current.id, details: { name: current.name } });
      await deps.announceChange({ scope: 'endpoint', id: current.id });
      logger.info('endpoint deleted', { endpoint_id: current.id, account_id: current.account_id, actor: actorOf(req) });
      await dropCliBacklogs(deps, targets);
    });
    res.status(204).end();
  });

  return r;
}

/** Validates a PATCH against the stored settings, writes it, audits state changes, announces it. */
async function patchEndpoint(deps: EndpointRouteDeps, req: Request): Promise<Record<string, unknown>> {
  const current = await endpointOf(deps, req);
  const stored = {
    inbound_auth: settingsOf(current).inbound_auth,
    captcha: current.captcha ?? null,
    open: openerOf(deps.secrets),
  };
  const sent = checked(req, validateEndpointInput(req.body, 'update', stored));
  const { merged, changes } = mergeSettings(settingsOf(current), sent);
  const combination = checkCombination(merged, sent);
  if (changes.payload_format !== undefined)
    combination.push(...(await routingFormatErrors(deps.store, current.id, changes.payload_format)));
  if (combination.length) throw invalid(combination);
  if (Object.keys(changes).length === 0) return viewOf(deps, current, req);
  if (!(await updateEndpoint(deps.store, current.id, current.revision, sealed(changes, deps.secrets)))) {
    await endpointOf(deps, req); // 404 when it was deleted meanwhile
    throw conflict();
  }
  // a manual disable, pause or resume is recorded as that action, whichever way it was made;
  // every other field changed (maintenance windows too) in one `endpoint_updated` row, by name
  const others = Object.keys(changes).filter((f) => f !== 'enabled' && f !== 'paused');
  await audit(
    deps.store,
    req,
    ...auditActionsFor(settingsOf(current), changes).map((action) => ({ action, endpoint_id: current.id })),
    ...(others.length
      ? [{ action: 'endpoint_updated' as const, endpoint_id: current.id, details: settingsAuditDetails(others) }]
      : []),
  );
  await deps.announceChange({ scope: 'endpoint', id: current.id });
  deps.logger.info('endpoint settings saved', {
    endpoint_id: current.id,
    account_id: current.account_id,
    revision: (current.revision ?? 0) + 1,
    fields: Object.keys(changes),
    actor: actorOf(req),
  });
  return viewOf(deps, await endpointOf(deps, req), req);
}

/** A format whose payload has no fields is refused while a target routes on fields (docs/routing.md). */
async function routingFormatErrors(store: Store, endpointId: string, format: PayloadFormat): Promise<FieldError[]> {
  const problem = routingFormatProblem(format);
  if (problem === null) return [];
  const routed = await routedTargetIds(store, endpointId, 5);
  if (routed.length === 0) return [];
  return [
    {
      field: 'payload_format',
      message: `cannot be ${format} while targets route on payload fields (${routed.join(', ')}): remove their routing first`,
    },
  ];
}
