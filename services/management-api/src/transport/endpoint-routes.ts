import { Router } from 'express';
import type { Request, Response } from 'express';
import { newId } from '@relay/contracts';
import { toEndpoint } from '@relay/store';
import type { EndpointRecord, Store } from '@relay/store';
import { checkCombination, validateEndpointInput } from '../domain/endpoint-input';
import { accountOf } from './auth';
import { invalid, notFound } from './errors';

export interface EndpointRouteDeps {
  store: Store;
  publicBaseUrl: string;
  announceChange(endpointId: string): Promise<void>;
}

export function endpointView(e: EndpointRecord, publicBaseUrl: string): Record<string, unknown> {
  return { ...e, ingest_url: `${publicBaseUrl.replace(/\/$/, '')}/relay/${e.id}` };
}

export function endpointRoutes(deps: EndpointRouteDeps): Router {
  const r = Router();
  const { store } = deps;

  const load = async (req: Request): Promise<EndpointRecord> => {
    const doc = await store.endpoints.findOne({ _id: String(req.params.endpointId), account_id: accountOf(req) }).lean();
    if (!doc) throw notFound('Endpoint');
    return toEndpoint(doc);
  };

  r.post('/', async (req: Request, res: Response) => {
    const v = validateEndpointInput(req.body, 'create');
    if (!v.ok) throw invalid(v.errors);
    const s = v.value as Required<typeof v.value>;
    const combo = checkCombination(s);
    if (combo.length) throw invalid(combo);
    const now = new Date();
    const doc = await store.endpoints.create({ _id: newId('ep'), account_id: accountOf(req), ...s, created_at: now, updated_at: now });
    res.status(201).json(endpointView(toEndpoint(doc.toObject()), deps.publicBaseUrl));
  });

  r.get('/', async (req: Request, res: Response) => {
    const docs = await store.endpoints.find({ account_id: accountOf(req) }).sort({ created_at: 1 }).lean();
    res.json({ data: docs.map((d) => endpointView(toEndpoint(d), deps.publicBaseUrl)) });
  });

  r.get('/:endpointId', async (req: Request, res: Response) => {
    res.json(endpointView(await load(req), deps.publicBaseUrl));
  });

  r.patch('/:endpointId', async (req: Request, res: Response) => {
    const current = await load(req);
    const v = validateEndpointInput(req.body, 'update');
    if (!v.ok) throw invalid(v.errors);
    const next = { ...current, ...v.value };
    const combo = checkCombination(next);
    if (combo.length) throw invalid(combo);
    await store.endpoints.updateOne({ _id: current.id }, { $set: { ...v.value, updated_at: new Date() } });
    await deps.announceChange(current.id);
    res.json(endpointView(await load(req), deps.publicBaseUrl));
  });

  r.delete('/:endpointId', async (req: Request, res: Response) => {
    const current = await load(req);
    await store.targets.deleteMany({ endpoint_id: current.id });
    await store.endpoints.deleteOne({ _id: current.id });
    await deps.announceChange(current.id);
    res.status(204).end();
  });

  return r;
}
