import { must } from '@relay/client';
import type { ActivityRow, TargetCreate } from '@relay/client';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { deleteBrokerNamespace, eventually } from '../support/infra';
import { activityRowWhen } from '../support/api-client';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Retries, the dead-letter queue, the redrive command and the target flag, seen from outside:
 * every service a process, the delays real RabbitMQ tiers (200 ms / 500 ms for the test),
 * outcomes read back through the management API's activity log.
 */
const TIERS = '200,500';
let stack: Stack;
let receiver: TestReceiver;
let endpointId: string;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  // private: the deliverer's retry tiers and flagging settings
  stack = await startStack('retry', {
    overrides: {
      'webhook-deliverer': { RETRY_TIERS_MS: TIERS, RETRY_AFTER_MAX_MS: '500', FLAG_AFTER_PERMANENT_FAILURES: '3' },
    },
  });
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'retries' } }))).id;
});

afterAll(async () => {
  await stack?.stop();
  if (stack) await deleteBrokerNamespace(stack.namespace, TIERS.split(',').map(Number));
  await receiver?.close();
});

/** Each test attaches one target and removes it afterwards, so a request fans out to it alone. */
async function withTarget(body: Partial<TargetCreate>, run: (targetId: string) => Promise<void>): Promise<void> {
  const created = await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: { kind: 'webhook', name: 'r', config: { url: receiver.url(), enforce_https: false }, ...body },
    }),
  );
  try {
    await run(created.id);
  } finally {
    await must(
      stack.client.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}', {
        params: { path: { endpointId, targetId: created.id } },
      }),
    );
  }
}

async function send(): Promise<string> {
  const before = receiver.requests.length;
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"order":1}',
  });
  expect(res.status).toBe(202);
  const [req] = (await receiver.waitForRequests(before + 1, 15000)).slice(before);
  return String(req!.headers['x-relay-event-id']);
}

const rowWhen = (eventId: string, ok: (row: ActivityRow) => boolean, what: string) =>
  activityRowWhen(stack.client, eventId, ok, what, 15_000);

function runRedrive(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(
    process.execPath,
    [path.resolve(__dirname, '../../services/deliverer/dist/redrive.js'), ...args],
    { env: { PATH: process.env.PATH ?? '', ...stack.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

describe('retries reach the activity row: Pending while attempts remain, then Completed or Errors', () => {
  it('503, 503, 200 → Pending with next_attempt_at while retrying, then Completed', async () => {
    receiver.requests.length = 0;
    let n = 0;
    receiver.respondWith(() => (++n <= 2 ? { status: 503 } : { status: 200 }));
    await withTarget({ retry_schedule_ms: [500, 500] }, async () => {
      const eventId = await send();
      const pending = await rowWhen(
        eventId,
        (r) => r.status === 'pending' && r.deliveries[0]?.attempts.length >= 1,
        'a Pending row with a retrying attempt',
      );
      expect(pending.deliveries[0].attempts[0]).toMatchObject({
        attempt: 1,
        state: 'retrying',
        status_code: 503,
        error: 'HTTP 503',
      });
      expect(pending.deliveries[0].attempts[0].next_attempt_at).not.toBeNull();
      const done = await rowWhen(eventId, (r) => r.status === 'completed', 'a Completed row');
      expect(done.deliveries[0].attempts.map((a: any) => [a.attempt, a.state, a.status_code])).toEqual([
        [1, 'retrying', 503],
        [2, 'retrying', 503],
        [3, 'delivered', 200],
      ]);
      expect(receiver.requests.map((r) => r.headers['x-relay-attempt'])).toEqual(['1', '2', '3']);
    });
  });

  it('every attempt fails → Errors after the last one, dead-lettered; `redrive` sends it again and the row ends Completed', async () => {
    receiver.requests.length = 0;
    receiver.respondWith({ status: 500 });
    await withTarget({ retry_schedule_ms: [200] }, async () => {
      const eventId = await send();
      const failed = await rowWhen(eventId, (r) => r.status === 'errors', 'an Errors row');
      expect(failed.deliveries[0].attempts.map((a: any) => [a.attempt, a.state])).toEqual([
        [1, 'retrying'],
        [2, 'failed'],
      ]);
      receiver.respondWith({ status: 200 });
      const { code, out } = await runRedrive(['--channel', 'webhook', '--limit', '10']);
      expect(code).toBe(0);
      expect(JSON.parse(out.trim())).toEqual({ channel: 'webhook', moved: 1, kept: 0 });
      const done = await rowWhen(eventId, (r) => r.status === 'completed', 'Completed after the redrive');
      expect(done.deliveries[0].attempts.at(-1)).toMatchObject({ attempt: 3, state: 'delivered' });
      expect(new Set(receiver.requests.map((r) => r.headers['x-relay-delivery-id'])).size).toBe(1);
    });
  });
});

describe('flagged targets through the management API', () => {
  it('410 flags the target (shown on the target), later requests are not sent, and clearing the flag lets deliveries flow again', async () => {
    receiver.requests.length = 0;
    receiver.respondWith({ status: 410 });
    await withTarget({}, async (targetId) => {
      const eventId = await send();
      await rowWhen(eventId, (r) => r.status === 'errors', 'an Errors row');
      const shown = await eventually(
        async () => {
          const t = await must(
            stack.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
              params: { path: { endpointId, targetId } },
            }),
          );
          return t.flagged ? t : undefined;
        },
        10000,
        'the flag on the target',
      );
      expect(shown.flagged?.reason).toBe('HTTP 410');

      const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(202);
      await new Promise((r) => setTimeout(r, 1000));
      expect(receiver.requests).toHaveLength(1);

      const cleared = await must(
        stack.client.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}/flag', {
          params: { path: { endpointId, targetId } },
        }),
      );
      expect(cleared).toMatchObject({ flagged: null });
      receiver.respondWith({ status: 200 });
      const before = receiver.requests.length;
      await send();
      expect(receiver.requests.length).toBe(before + 1);
    });
  });

  it('a per-target retry schedule is accepted, shown beside the default, and validated', async () => {
    await withTarget({ retry_schedule_ms: [1000, 60000] }, async (targetId) => {
      const target = { params: { path: { endpointId, targetId } } };
      const shown = await must(stack.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', target));
      expect(shown).toMatchObject({ retry_schedule_ms: [1000, 60000], flagged: null });
      expect(shown.default_retry_schedule_ms).toHaveLength(9);
      const patched = await must(
        stack.client.PATCH('/v1/endpoints/{endpointId}/targets/{targetId}', {
          ...target,
          body: { retry_schedule_ms: null },
        }),
      );
      expect(patched.retry_schedule_ms).toBeNull();
      // raw: a schedule the document refuses, for the 400 naming the field
      const bad = await stack.api(`/v1/endpoints/${endpointId}/targets/${targetId}`, {
        method: 'PATCH',
        body: { retry_schedule_ms: [-1] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([
        { field: 'retry_schedule_ms[0]', message: 'must be an integer from 0 to 86400000' },
      ]);
    });
  });
});
