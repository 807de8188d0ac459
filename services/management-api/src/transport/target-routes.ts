import { Router } from 'express';
import type { Request, Response } from 'express';
import { newId } from '@relay/contracts';
import { toTarget } from '@relay/store';
import type { Store, TargetRecord } from '@relay/store';
import { validateRetrySchedule } from '@relay/targets';
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

  /**
   * `flagged` is set by the deliverers (docs/delivery.md "Flagged targets"); `retry_schedule_ms`
   * null means the kind's default, shown beside it.
   */
  const view = (t: TargetRecord): Record<string, unknown> => {
    const kind = registry.get(t.kind);
    return {
      ...t,
      config: kind ? kind.publicConfig(t.config) : {},
      flagged: t.flagged ?? null,
      retry_schedule_ms: t.retry_schedule_ms ?? null,
      default_retry_schedule_ms: kind?.defaultRetryScheduleMs ?? null,
    };
  };
  const retryScheduleOf = (input: unknown): number[] | null => {
    const v = validateRetrySchedule(input);
    if (!v.ok) throw invalid(v.errors);
    return v.value;
  };
  const targetOf = async (req: Request): Promise<{ endpointId: string; targetId: string }> => {
    const endpointId = await endpointOf(req);
    const targetId = String(req.params.targetId);
    if (!(await store.targets.exists({ _id: targetId, endpoint_id: endpointId }))) throw notFound('Target');
    return { endpointId, targetId };
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
    const retrySchedule = retryScheduleOf(body.retry_schedule_ms);
    const now = new Date();
    const doc = await store.targets.create({
      _id: newId('tg'),
      account_id: accountOf(req),
      endpoint_id: endpointId,
      kind: kind.kind,
      name: body.name.trim(),
      enabled: body.enabled === undefined ? true : body.enabled === true,
      config: v.value as Record<string, unknown>,
      retry_schedule_ms: retrySchedule,
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

  r.get('/:targetId', async (req: Request, res: Response) => {
    const { targetId } = await targetOf(req);
    res.json(view(toTarget((await store.targets.findById(targetId).lean())!)));
  });

  /** name, enabled and the retry schedule; a config change is a new target */
  r.patch('/:targetId', async (req: Request, res: Response) => {
    const { endpointId, targetId } = await targetOf(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const set: Record<string, unknown> = {};
    const problems: { field: string; message: string }[] = [];
    for (const key of Object.keys(body)) if (!['name', 'enabled', 'retry_schedule_ms'].includes(key)) problems.push({ field: key, message: 'cannot be changed here' });
    if ('name' in body && (typeof body.name !== 'string' || body.name.trim() === '' || body.name.length > 200)) problems.push({ field: 'name', message: 'must be a non-empty string of at most 200 characters' });
    if ('enabled' in body && typeof body.enabled !== 'boolean') problems.push({ field: 'enabled', message: 'must be a boolean' });
    if (problems.length > 0) throw invalid(problems);
    if ('name' in body) set.name = (body.name as string).trim();
    if ('enabled' in body) set.enabled = body.enabled;
    if ('retry_schedule_ms' in body) set.retry_schedule_ms = retryScheduleOf(body.retry_schedule_ms);
    const doc = await store.targets.findOneAndUpdate({ _id: targetId }, { $set: { ...set, updated_at: new Date() } }, { new: true }).lean();
    if ('enabled' in body) await deps.announceChange(endpointId);
    res.json(view(toTarget(doc!)));
  });

  /**
   * Clears the flag once the destination is fixed; deliveries flow again within the
   * deliverers' target cache TTL. Deliveries dead-lettered meanwhile are redriven with
   * `npm run redrive` (docs/delivery.md).
   */
  r.delete('/:targetId/flag', async (req: Request, res: Response) => {
    const { targetId } = await targetOf(req);
    const doc = await store.targets.findOneAndUpdate({ _id: targetId }, { $set: { flagged: null, updated_at: new Date() } }, { new: true }).lean();
    res.json(view(toTarget(doc!)));
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
