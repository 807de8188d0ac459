import { Router } from 'express';
import type { Request, Response } from 'express';
import type { CacheChange } from '@relay/contracts';
import type { PayloadFormat } from '@relay/endpoints';
import { findEndpointTarget, targetsOfEndpoint } from '@relay/store';
import type { Store, TargetRecord } from '@relay/store';
import type { Logger } from '@relay/logging';
import type { TargetRegistry } from '@relay/targets';
import { endpointExists, endpointFormat } from '../adapters/endpoint-store';
import { clearTargetFlag, createTarget, deleteTarget, updateTarget } from '../adapters/target-store';
import {
  changedTargetFields,
  orderingApplies,
  routingApplies,
  validateNewTarget,
  validateTargetChanges,
} from '../domain/target-input';
import { targetView } from '../domain/target-view';
import type { TargetBreakers } from '../adapters/target-breakers';
import type { HeldKeysReader } from '../adapters/held-keys';
import { audit } from './audit-trail';
import { dropCliBacklogs } from './endpoint-common';
import type { EndpointRouteDeps } from './endpoint-common';
import { accountOf, actorOf } from './auth';
import { ApiError, notFound } from './errors';
import { checked, operation } from './operation';

export interface TargetRouteDeps {
  store: Store;
  registry: TargetRegistry;
  announceChange(change: CacheChange): Promise<void>;
  /** pause and resume by hand (adapters/target-breakers) */
  breakers: TargetBreakers;
  /** the ordering keys the deliverers hold back (adapters/held-keys) */
  heldKeys: HeldKeysReader;
  dropCliBacklog: EndpointRouteDeps['dropCliBacklog'];
  logger: Logger;
}

/** Targets (spec "Outputs") of one endpoint. Configs are shown through their kind's public view. */
export function targetRoutes(deps: TargetRouteDeps): Router {
  const r = Router({ mergeParams: true });
  const { store, registry } = deps;
  const view = (t: TargetRecord): Record<string, unknown> => targetView(t, registry);

  /** The caller's endpoint named in the path, or 404 (another account's endpoint is not found either). */
  const endpointOf = async (req: Request): Promise<string> => {
    const id = String(req.params.endpointId);
    if (!(await endpointExists(store, accountOf(req), id))) throw notFound('Endpoint');
    return id;
  };
  /** …with its payload format, what the target's routing rules can read (routingApplies) */
  const endpointAndFormat = async (req: Request): Promise<{ endpointId: string; format: PayloadFormat }> => {
    const endpointId = String(req.params.endpointId);
    const format = await endpointFormat(store, accountOf(req), endpointId);
    if (format === null) throw notFound('Endpoint');
    return { endpointId, format };
  };
  const found = (t: TargetRecord | null): TargetRecord => {
    if (!t) throw notFound('Target');
    return t;
  };

  r.post('/', ...operation('createTarget', { reportWithHandler: true }), async (req: Request, res: Response) => {
    const { endpointId, format } = await endpointAndFormat(req);
    const kind = (req.body as { kind?: unknown } | null)?.kind;
    const sent = checked(
      req,
      orderingApplies(
        routingApplies(validateNewTarget(req.body, registry), format),
        typeof kind === 'string' ? kind : undefined,
        format,
        registry,
      ),
    );
    const target = await createTarget(store, accountOf(req), endpointId, sent);
    await audit(store, req, {
      action: 'target_created',
      endpoint_id: endpointId,
      details: { target_id: target.id, name: target.name, kind: target.kind },
    });
    await deps.announceChange({ scope: 'target', id: target.id, endpoint_id: endpointId });
    res.status(201).json(view(target));
  });

  r.get('/', ...operation('listTargets'), async (req: Request, res: Response) => {
    const endpointId = await endpointOf(req);
    res.json({ data: (await targetsOfEndpoint(store, endpointId)).map(view) });
  });

  r.get('/:targetId', ...operation('getTarget'), async (req: Request, res: Response) => {
    const endpointId = await endpointOf(req);
    res.json(view(found(await findEndpointTarget(store, endpointId, String(req.params.targetId)))));
  });

  /** the keys the deliverers hold back now (docs/ordering.md "Held keys"); empty for a target that is not ordered */
  r.get('/:targetId/held-keys', ...operation('listHeldKeys'), async (req: Request, res: Response) => {
    const endpointId = await endpointOf(req);
    const target = found(await findEndpointTarget(store, endpointId, String(req.params.targetId)));
    res.json({ ordering: target.ordering ?? null, data: await deps.heldKeys.of(target.id) });
  });

  /** name, enabled, the retry schedule and routing; a config change is a new target */
  r.patch(
    '/:targetId',
    ...operation('updateTarget', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const { endpointId, format } = await endpointAndFormat(req);
      const targetId = String(req.params.targetId);
      const before = found(await findEndpointTarget(store, endpointId, targetId));
      const sent = checked(
        req,
        orderingApplies(routingApplies(validateTargetChanges(req.body), format), before.kind, format, registry),
      );
      const target = found(await updateTarget(store, endpointId, targetId, sent));
      // the entry names the fields whose values changed, not every field the form sent back
      const fields = changedTargetFields(before, sent);
      if (fields.length > 0)
        await audit(store, req, {
          action: 'target_updated',
          endpoint_id: endpointId,
          details: { target_id: targetId, name: target.name, fields },
        });
      // the gateways route only to enabled targets; the deliverers cache the whole target
      await deps.announceChange({ scope: 'target', id: targetId, endpoint_id: endpointId });
      res.json(view(target));
    },
  );

  /**
   * Clears the flag once the destination is fixed; deliveries flow again as soon as the
   * deliverers hear of it (within a second). Deliveries dead-lettered meanwhile are redriven with
   * `npm run redrive` (docs/delivery.md).
   */
  r.delete('/:targetId/flag', ...operation('clearTargetFlag'), async (req: Request, res: Response) => {
    const endpointId = await endpointOf(req);
    const target = found(await clearTargetFlag(store, endpointId, String(req.params.targetId)));
    await audit(store, req, {
      action: 'target_flag_cleared',
      endpoint_id: endpointId,
      details: { target_id: target.id, name: target.name },
    });
    await deps.announceChange({ scope: 'target', id: target.id, endpoint_id: endpointId });
    res.json(view(target));
  });

  /**
   * Pause holds every delivery of the target on the broker (none sent, no attempt used) until
   * resumed; resume closes its breaker with an empty window, and held deliveries come back
   * within a minute (docs/delivery-limits.md "Pause and resume"). Either is a no-op when the
   * target already is so; only a change is audited.
   */
  for (const [path, to, action, op] of [
    ['pause', 'paused', 'target_paused', 'pauseTarget'],
    ['resume', 'closed', 'target_resumed', 'resumeTarget'],
  ] as const) {
    r.post(`/:targetId/${path}`, ...operation(op), async (req: Request, res: Response) => {
      const endpointId = await endpointOf(req);
      const target = found(await findEndpointTarget(store, endpointId, String(req.params.targetId)));
      const who = `${path === 'pause' ? 'paused' : 'resumed'} by ${actorOf(req)}`;
      const { won } = await deps.breakers.setByHand(target, to, who);
      if (won)
        await audit(store, req, {
          action,
          endpoint_id: endpointId,
          details: { target_id: target.id, name: target.name },
        });
      res.json(view(found(await findEndpointTarget(store, endpointId, target.id))));
    });
  }

  r.delete('/:targetId', ...operation('deleteTarget'), async (req: Request, res: Response) => {
    const endpointId = await endpointOf(req);
    const targetId = String(req.params.targetId);
    const gone = found(await findEndpointTarget(store, endpointId, targetId));
    if (!(await deleteTarget(store, endpointId, targetId))) throw notFound('Target');
    await audit(store, req, {
      action: 'target_deleted',
      endpoint_id: endpointId,
      details: { target_id: targetId, name: gone.name, kind: gone.kind },
    });
    await deps.announceChange({ scope: 'target', id: targetId, endpoint_id: endpointId });
    await dropCliBacklogs(deps, [gone]);
    res.status(204).end();
  });

  r.all('/{*rest}', () => {
    throw new ApiError(405, 'method_not_allowed', 'Method not allowed.');
  });
  return r;
}
