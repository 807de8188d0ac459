import { LRUCache } from '@relay/cache';
import type { ChangeFeed } from '@relay/cache';
import { MAX_ATTEMPT_TRANSFORM_LOG_CHARS, MAX_ATTEMPT_TRANSFORM_LOGS } from '@relay/contracts';
import type { AttemptTransformNote, DeliveryMessageV1 } from '@relay/contracts';
import { findEndpoint, transformationHeads } from '@relay/store';
import type { Store, TargetRecord } from '@relay/store';
import { applyTransformations } from './apply';
import type { Transformation, Transformed } from './apply';
import type { Address } from './address';
import { DEFAULT_LIMITS } from './limits';
import type { SandboxLimits } from './limits';
import type { TransformContext } from './request';
import { TransformRunner } from './runner';

/**
 * What a delivery comes to once its transformations ran. `address`: the path and query they set,
 * which a webhook target sends to beneath its URL (`addressedUrl`); absent when unchanged.
 */
export type DeliveryStep =
  | { result: 'pass'; delivery: DeliveryMessageV1; note: AttemptTransformNote | null; address?: Address }
  | { result: 'dropped'; note: AttemptTransformNote }
  | { result: 'transform_failed'; error: string; note: AttemptTransformNote };

export interface DeliveryTransformer {
  /** Runs the endpoint's transformation, then the target's, on one delivery; no sandbox when neither has one. */
  apply(d: DeliveryMessageV1, target: TargetRecord): Promise<DeliveryStep>;
  close(): Promise<void>;
}

/** Applies no transformation: what a deliverer does where none is set (and what handler tests use). */
export const PASS_THROUGH: Pick<DeliveryTransformer, 'apply'> = {
  apply: async (d) => ({ result: 'pass', delivery: d, note: null }),
};

export interface DeliveryTransformerOptions {
  store: Store;
  /** the change announcements: a saved transformation announces its endpoint or target */
  feed: ChangeFeed;
  limits?: Partial<SandboxLimits>;
  /** scopes (endpoints, targets) whose transformation is kept in memory */
  maxEntries?: number;
}

type Meta = Pick<TransformContext, 'endpoint' | 'provider'>;

/**
 * The deliverer's side of transformations: which ones apply (cached per endpoint and target until
 * an announcement says they changed; a scope without one is cached too, so its deliveries read
 * nothing), and the runner, started on the first delivery that has one.
 */
export function createDeliveryTransformer(opts: DeliveryTransformerOptions): DeliveryTransformer {
  const max = opts.maxEntries ?? 10_000;
  const heads = new LRUCache<string, { value: Transformation | null }>({ max });
  const metas = new LRUCache<string, Meta>({ max });
  let runner: TransformRunner | null = null;
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  opts.feed.onChange((change) => {
    heads.delete(change.id);
    if (change.scope === 'endpoint') metas.delete(change.id);
  });
  opts.feed.onResync(() => {
    heads.clear();
    metas.clear();
  });

  const chainOf = async (endpointId: string, targetId: string): Promise<Transformation[]> => {
    const missing = [endpointId, targetId].filter((id) => !heads.has(id));
    if (missing.length > 0) {
      const found = new Map((await transformationHeads(opts.store, missing)).map((h) => [h.scope_id, h]));
      for (const id of missing) {
        const h = found.get(id);
        heads.set(id, { value: h?.active ? { scope: h.scope, ...h.active } : null });
      }
    }
    return [heads.get(endpointId)?.value ?? null, heads.get(targetId)?.value ?? null].filter(
      (t): t is Transformation => t !== null,
    );
  };

  const metaOf = async (endpointId: string): Promise<Meta> => {
    const held = metas.get(endpointId);
    if (held) return held;
    const e = await findEndpoint(opts.store, endpointId);
    const auth = e?.inbound_auth as { preset?: string } | undefined;
    const meta: Meta = {
      endpoint: { id: endpointId, name: e?.name ?? '' },
      provider: typeof auth?.preset === 'string' ? auth.preset : null,
    };
    metas.set(endpointId, meta);
    return meta;
  };

  return {
    async apply(d, target) {
      const chain = await chainOf(d.endpoint_id, target.id);
      if (chain.length === 0) return { result: 'pass', delivery: d, note: null };
      runner ??= new TransformRunner(opts.limits);
      const context: TransformContext = {
        event_id: d.event_id,
        received_at: d.received_at,
        ...(await metaOf(d.endpoint_id)),
        target: { id: target.id, name: target.name, kind: target.kind },
      };
      const r = runner;
      const done = await applyTransformations(
        (tenant, code, args) => r.call(tenant, code, args),
        d.account_id,
        chain,
        d,
        context,
        limits.outputBytes,
      );
      const note = noteOf(done);
      if (done.result === 'dropped') return { result: 'dropped', note };
      if (done.result === 'failed')
        return { result: 'transform_failed', error: `TRANSFORM_FAILED: ${done.error}`, note };
      // beside the message, not in it: only a webhook request reads it; a retry transforms the original again
      const { address, ...carried } = done.carried;
      return { result: 'pass', delivery: { ...d, ...carried }, note, ...(address ? { address } : {}) };
    },
    async close() {
      await runner?.close();
    },
  };
}

/** What the attempt keeps of the run: the versions that ran and their console lines, bounded. */
function noteOf(done: Transformed): AttemptTransformNote {
  const logs = done.ran
    .flatMap((r) => r.logs.map((l) => `[${r.scope} v${r.version}] ${l}`))
    .slice(0, MAX_ATTEMPT_TRANSFORM_LOGS)
    .map((l) => l.slice(0, MAX_ATTEMPT_TRANSFORM_LOG_CHARS));
  return { versions: done.ran.map((r) => ({ scope: r.scope, version: r.version })), logs };
}
