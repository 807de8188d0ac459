import { Router } from 'express';
import type { Request, Response } from 'express';
import type { ActivityLog } from '@relay/activity-log';
import type { FieldError, Validation } from '@relay/contracts';
import {
  clearTransformation,
  findEndpointTarget,
  saveTransformationVersion,
  transformationHeads,
  transformationVersion,
  transformationVersions,
} from '@relay/store';
import type { EndpointRecord, TransformationScope } from '@relay/store';
import { applyTransformations, inputOf, outputOf, TransformRunner } from '@relay/transform';
import type { TransformContext } from '@relay/transform';
import {
  diffOf,
  MAX_PREVIEW_EVENTS,
  transformationView,
  validateCode,
  versionView,
} from '../domain/transformation-view';
import { audit, whoOf } from './audit-trail';
import { accountOf } from './auth';
import { endpointOf } from './endpoint-common';
import type { EndpointRouteDeps } from './endpoint-common';
import { notFound } from './errors';
import { checked, operation } from './operation';

const DEFAULT_PREVIEW_EVENTS = 5;

interface Scoped {
  scope: TransformationScope;
  scopeId: string;
  endpoint: EndpointRecord;
  /** what the cache announcement names */
  change: { scope: 'endpoint'; id: string } | { scope: 'target'; id: string; endpoint_id: string };
}

/**
 * Transformations of an endpoint and of each target (docs/transformations.md): the active code
 * and its versions, a save (a new version), a restore (an old version saved again as the newest),
 * removal, and a preview of a draft on the endpoint's stored requests that delivers nothing.
 * Each save, restore and removal is audited and announced, so deliverers drop their cached copy.
 */
export function transformationRoutes(
  deps: EndpointRouteDeps & { retentionMs: number; activityLog: ActivityLog },
): Router {
  const r = Router();
  const { store } = deps;
  const log = deps.activityLog;
  let runner: TransformRunner | null = null;

  const scopes = [
    { scope: 'endpoint' as const, path: '/:endpointId/transformation', op: 'Endpoint' },
    { scope: 'target' as const, path: '/:endpointId/targets/:targetId/transformation', op: 'Target' },
  ];

  const scopedOf = async (scope: TransformationScope, req: Request): Promise<Scoped> => {
    const endpoint = await endpointOf(deps, req);
    if (scope === 'endpoint')
      return { scope, scopeId: endpoint.id, endpoint, change: { scope: 'endpoint', id: endpoint.id } };
    const target = await findEndpointTarget(store, endpoint.id, String(req.params.targetId));
    if (!target) throw notFound('Target');
    return {
      scope,
      scopeId: target.id,
      endpoint,
      change: { scope: 'target', id: target.id, endpoint_id: endpoint.id },
    };
  };

  const viewOf = async (s: Scoped): Promise<Record<string, unknown>> => {
    const [head] = await transformationHeads(store, [s.scopeId]);
    const versions = head ? await transformationVersions(store, s.scopeId, head.latest) : [];
    return transformationView(s.scope, s.scopeId, head ?? null, versions);
  };

  const save = async (s: Scoped, req: Request, code: string, restoredFrom: number | null) => {
    const who = whoOf(req);
    const saved = await saveTransformationVersion(store, {
      scope_id: s.scopeId,
      scope: s.scope,
      account_id: accountOf(req),
      endpoint_id: s.endpoint.id,
      code,
      saved_by: who.actor,
      saved_by_name: who.actor_name,
      restored_from: restoredFrom,
    });
    await audit(store, req, {
      action: restoredFrom === null ? 'transformation_saved' : 'transformation_restored',
      endpoint_id: s.endpoint.id,
      details: {
        scope: s.scope,
        scope_id: s.scopeId,
        version: saved.version,
        ...(restoredFrom === null ? {} : { restored_from: restoredFrom }),
      },
    });
    await deps.announceChange(s.change);
    return saved;
  };

  const versionParam = (req: Request): number => Number(req.params.version);

  for (const { scope, path, op } of scopes) {
    r.get(path, ...operation(`get${op}Transformation`), async (req: Request, res: Response) => {
      res.json(await viewOf(await scopedOf(scope, req)));
    });

    r.put(
      path,
      ...operation(`save${op}Transformation`, { reportWithHandler: true }),
      async (req: Request, res: Response) => {
        const code = checked(req, validateCode(req.body));
        const s = await scopedOf(scope, req);
        const saved = await save(s, req, code, null);
        res.status(201).json(versionView(saved, true));
      },
    );

    r.delete(path, ...operation(`remove${op}Transformation`), async (req: Request, res: Response) => {
      const s = await scopedOf(scope, req);
      if (await clearTransformation(store, s.scopeId)) {
        await audit(store, req, {
          action: 'transformation_removed',
          endpoint_id: s.endpoint.id,
          details: { scope: s.scope, scope_id: s.scopeId },
        });
        await deps.announceChange(s.change);
      }
      res.status(204).end();
    });

    r.get(
      `${path}/versions/:version`,
      ...operation(`get${op}TransformationVersion`),
      async (req: Request, res: Response) => {
        const s = await scopedOf(scope, req);
        const v = await transformationVersion(store, s.scopeId, versionParam(req));
        if (!v) throw notFound('Transformation version');
        res.json(versionView(v, true));
      },
    );

    r.post(
      `${path}/versions/:version/restore`,
      ...operation(`restore${op}Transformation`),
      async (req: Request, res: Response) => {
        const s = await scopedOf(scope, req);
        const old = await transformationVersion(store, s.scopeId, versionParam(req));
        if (!old) throw notFound('Transformation version');
        const saved = await save(s, req, old.code, old.version);
        res.status(201).json(versionView(saved, true));
      },
    );
  }

  r.post(
    '/:endpointId/transformations/preview',
    ...operation('previewTransformation', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const input = checked(req, previewInput(req.body));
      const endpoint = await endpointOf(deps, req);
      const target = input.targetId ? await findEndpointTarget(store, endpoint.id, input.targetId) : null;
      if (input.targetId && !target) throw notFound('Target');
      const ids = input.eventIds ?? (await lastAccepted(endpoint, input.limit));
      runner ??= new TransformRunner();
      const run = runner;
      const auth = endpoint.inbound_auth as { preset?: string };
      const results = [];
      for (const eventId of ids) {
        const row = await log.row(eventId);
        const stored =
          row && row.account_id === endpoint.account_id && row.endpoint_id === endpoint.id
            ? await log.payload(eventId)
            : null;
        if (!row || !stored) {
          results.push({ event_id: eventId, error: 'no stored request for this event on this endpoint' });
          continue;
        }
        const context: TransformContext = {
          event_id: eventId,
          received_at: row.received_at.toISOString(),
          endpoint: { id: endpoint.id, name: endpoint.name },
          target: target ? { id: target.id, name: target.name, kind: target.kind } : null,
          provider: typeof auth.preset === 'string' ? auth.preset : null,
        };
        const done = await applyTransformations(
          (tenant, code, args) => run.call(tenant, code, args),
          endpoint.account_id,
          [{ scope: target ? 'target' : 'endpoint', version: 0, code: input.code }],
          stored,
          context,
          run.limits.outputBytes,
        );
        const step = done.ran[0]!;
        const stepInput = inputOf(step, endpoint.id);
        const output = done.result === 'pass' ? outputOf(step, endpoint.id) : null;
        results.push({
          event_id: eventId,
          input: stepInput,
          output: output ?? null,
          dropped: done.result === 'dropped',
          diff: output ? diffOf(stepInput, output) : null,
          logs: step.logs,
          duration_ms: step.duration_ms,
          error: done.result === 'failed' ? done.message : null,
          line: done.result === 'failed' ? done.line : null,
        });
      }
      res.json({ data: results });
    },
  );

  /** The endpoint's newest accepted events (their payloads are kept), newest first. */
  const lastAccepted = async (endpoint: EndpointRecord, limit: number): Promise<string[]> => {
    const now = deps.now().getTime();
    const page = await log.list({
      account: endpoint.account_id,
      endpointId: endpoint.id,
      fromMs: now - deps.retentionMs,
      toMs: now + 1,
      cursor: null,
      limit,
      status: 'all',
      sourceIp: null,
      errorText: null,
      payload: null,
      responseStatus: null,
      where: (e) => e.outcome === 'ACCEPTED' && !e.aggregated,
    });
    return page.rows.map((row) => row.event_id);
  };

  return r;
}

interface PreviewInput {
  code: string;
  targetId: string | null;
  eventIds: string[] | null;
  limit: number;
}

function previewInput(body: unknown): Validation<PreviewInput> {
  const b = (body ?? {}) as Record<string, unknown>;
  const code = validateCode(b);
  const errors: FieldError[] = code.ok ? [] : [...code.errors];
  const eventIds = b.event_ids === undefined ? null : b.event_ids;
  if (eventIds !== null && (!Array.isArray(eventIds) || eventIds.length === 0 || eventIds.length > MAX_PREVIEW_EVENTS))
    errors.push({ field: 'event_ids', message: `must list 1 to ${MAX_PREVIEW_EVENTS} event ids` });
  const limit = b.limit === undefined ? DEFAULT_PREVIEW_EVENTS : b.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PREVIEW_EVENTS)
    errors.push({ field: 'limit', message: `must be an integer from 1 to ${MAX_PREVIEW_EVENTS}` });
  if (errors.length > 0 || !code.ok) return { ok: false, errors };
  return {
    ok: true,
    value: {
      code: code.value,
      targetId: typeof b.target_id === 'string' ? b.target_id : null,
      eventIds: eventIds as string[] | null,
      limit: limit as number,
    },
  };
}
