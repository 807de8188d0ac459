import { must } from '@relay/client';
import type { TargetCreate } from '@relay/client';
import { RETRY_SCHEDULE_LIMITS } from '@relay/targets';
import { startStack } from '../e2e/stack';
import type { Stack } from '../e2e/stack';
import { eventually } from './infra';
import { startService } from './services';

/*
 * What the end-to-end tests of the queue and stream kinds (docs/targets-queues.md) do alike on a
 * stack: add and remove a target, send an event, and wait for the target's flag or for its
 * deliveries to be retrying after the server refused them.
 */

/**
 * The worker's shared stack (which runs no outputs deliverer) with one outputs deliverer of the
 * file's own on its environment, and an endpoint for the file's targets. `stop()` stops both.
 */
export async function startOutputsStack(
  label: string,
): Promise<{ stack: Stack; endpointId: string; stop(): Promise<void> }> {
  const stack = await startStack(label);
  const outputs = await startService('outputs-deliverer', stack.env);
  const endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: label } }))).id;
  return {
    stack,
    endpointId,
    async stop() {
      await outputs.stop();
      await stack.stop();
    },
  };
}

/**
 * A target's settings for a test that stops its destination server and starts it again: retries
 * every 5 s (the outputs channel's shortest tier), so the held deliveries arrive soon after the
 * start; the most retries a target may have (100 s of them), more than a test's waits for the
 * refusals and the start; and a breaker that does not open (not under test there), whose
 * cool-down could otherwise outlast the wait for the deliveries.
 */
export const RIDES_OUT_AN_OUTAGE = {
  retry_schedule_ms: Array<number>(RETRY_SCHEDULE_LIMITS.maxRetries).fill(5000),
  breaker: { failure_rate_pct: 100, min_attempts: 100_000, window_s: 10, cool_down_s: 1, flag_after_open_s: 60 },
} satisfies Partial<TargetCreate>;

export async function addQueueTarget(
  stack: Stack,
  endpointId: string,
  kind: TargetCreate['kind'],
  config: Record<string, unknown>,
  settings: Partial<Pick<TargetCreate, 'retry_schedule_ms' | 'breaker'>> = {},
): Promise<string> {
  const created = await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: { kind, name: kind, config, ...settings },
    }),
  );
  return created.id;
}

export async function removeTarget(stack: Stack, endpointId: string, targetId: string): Promise<void> {
  await must(
    stack.client.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}', {
      params: { path: { endpointId, targetId } },
    }),
  );
}

export async function sendJson(stack: Stack, endpointId: string, body: unknown): Promise<void> {
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 202) throw new Error(`the gateway answered ${res.status}, not 202`);
}

/** the target's flag, once a delivery set it */
export function flagOf(stack: Stack, endpointId: string, targetId: string): Promise<{ reason: string }> {
  return eventually(
    async () => {
      const t = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
          params: { path: { endpointId, targetId } },
        }),
      );
      return t.flagged ?? undefined;
    },
    30_000,
    'the target flagged',
  );
}

/**
 * waits until `n` of the endpoint's rows are pending with `error` as their latest delivery error;
 * on timeout it says what the rows showed instead
 */
export function retryingWith(stack: Stack, endpointId: string, error: string, n: number): Promise<true> {
  return eventually(
    async () => {
      const { data } = await stack.client.GET('/v1/activity', {
        params: { query: { endpoint_id: endpointId, status: 'pending', error } },
      });
      if ((data?.data ?? []).length === n) return true;
      const all = await stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpointId } } });
      const seen = (all.data?.data ?? []).map((r) => `${r.status}: ${r.last_error ?? 'no error'}`);
      throw new Error(`the rows show ${JSON.stringify(seen)}`);
    },
    // the first attempt of a delivery sent while the server stops may end another way (a reset,
    // a timeout): the next one, 5 s later, is refused
    60_000,
    `${n} deliveries retrying after "${error}"`,
  );
}

/** waits until `n` of the endpoint's rows are completed */
export function completedRows(stack: Stack, endpointId: string, n: number): Promise<true> {
  return eventually(
    async () => {
      const { data } = await stack.client.GET('/v1/activity', {
        params: { query: { endpoint_id: endpointId, status: 'completed' } },
      });
      return (data?.data ?? []).length === n ? true : undefined;
    },
    30_000,
    `${n} completed rows`,
  );
}
