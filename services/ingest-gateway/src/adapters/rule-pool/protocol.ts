import type { PooledJob, PooledVerdict } from '../../domain/rules/pooled-rules';

/** What the rule pool sends a worker: one job at a time. */
export interface WorkerTask {
  id: number;
  job: PooledJob;
}

/**
 * A worker's answer to task `id`: its verdict, that a stored pattern cannot be compiled, or the
 * message of an error it threw (a bug); or, once at start, that it is ready (its modules loaded),
 * so that no deadline counts its start-up.
 */
export type WorkerAnswer =
  | { id: number; verdict: PooledVerdict }
  | { id: number; unusable: string }
  | { id: number; error: string }
  | { ready: true };
