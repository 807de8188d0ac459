import { Router } from 'express';
import type { Request, Response } from 'express';
import { newId } from '@relay/contracts';
import { toTarget } from '@relay/store';
import type { Store, TargetRecord } from '@relay/store';
import type { TargetRegistry } from '@relay/targets';
import { accountOf } from './auth';
import { ApiError, invalid, notFound } from './errors';

export interface TargetRouteDeps {
  store: Store;
  registry: TargetRegistry;
  announceChange(endpointId: string): Promise<void>;
}

/** Targets (spec "Outputs") of one endpoint. Configs are shown through their kind's public view. */
export function targetRoutes(deps: TargetRouteDeps): Router {
  const r = Router({ mergeParams: true });
  const { store, registry } = deps;

  const view = (t: TargetRecord): Record<string, unknown> => {
    const kind = registry.get(t.kind);
    return { ...t, config: kind ? kind.publicConfig(t.config) : {} };
  };
  const endpointOf = async (req: Request): Promise<string> => {
    const id = String(req.params.endpointId);
    const exists = await store.endpoints.exists({ _id: id, account_id: accountOf(req) });
    if (!exists) throw notFound('Endpoint');
    return id;
  };

  r.post('/', async (req: Request, res: Response) => {
    const endpointId = await endpointOf(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const kind = typeof body.kind === 'string' ? registry.get(body.kind) : undefined;
    if (!kind) throw invalid([{ field: 'kind', message: `must be one of ${registry.kinds().join(', ')}` }]);
    if (typeof body.name !== 'string' || body.name.trim() === '' || body.name.length > 200) throw invalid([{ field: 'name', message: 'must be a non-empty string of at most 200 characters' }]);
    const v = kind.validateConfig(body.config);
    if (!v.ok) throw invalid(v.errors);
    const now = new Date();
    const doc = await store.targets.create({
      _id: newId('tg'),
      account_id: accountOf(req),
      endpoint_id: endpointId,
      kind: kind.kind,
      name: body.name.trim(),
      enabled: body.enabled === undefined ? true : body.enabled === true,
      config: v.config as Record<string, unknown>,
      created_at: now,
      updated_at: now,
    });
    await deps.announceChange(endpointId);
    res.status(201).json(view(toTarget(doc.toObject())));
  });

  r.get('/', async (req: Request, res: Response) => {
    const endpointId = await endpointOf(req);
    const docs = await store.targets.find({ endpoint_id: endpointId }).sort({ created_at: 1 }).lean();
    res.json({ data: docs.map((d) => view(toTarget(d))) });
  });

  r.delete('/:targetId', async (req: Request, res: Response) => {
    const endpointId = await endpointOf(req);
    const result = await store.targets.deleteOne({ _id: String(req.params.targetId), endpoint_id: endpointId });
    if (result.deletedCount === 0) throw notFound('Target');
    await deps.announceChange(endpointId);
    res.status(204).end();
  });

  r.all('/{*rest}', () => {
    throw new ApiError(405, 'method_not_allowed', 'Method not allowed.');
  });
  return r;
}
