import { must } from '@relay/client';
import type { EndpointPatch, PlanPatch } from '@relay/client';
import { cacheChangesSeqKey } from '@relay/contracts';
import { eventually, infra } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { TcpProxy } from '../support/tcp-proxy';
import { startStack } from './stack';
import type { Stack } from './stack';
import { modelsOf } from '../support/store-models';

/*
 * The caches of settings are told, not timed (docs/architecture.md "Caches of
 * settings"). Two gateways and two webhook deliverers, each its own process on the real Redis,
 * RabbitMQ and FerretDB; the second of each reaches Redis through a TCP proxy, so a test can
 * cut its connection (as a Redis restart or a network cut would) without touching the shared
 * Redis. A setting, a plan, a target and a flag changed through the API must be in force at
 * every instance within 1 s — heard, or (cut) found by the revalidation that a lost
 * subscription starts.
 */
const IN_FORCE_MS = 1000;
let stack: Stack;
let receiver: TestReceiver;
let second: TestReceiver;
let proxy: TcpProxy;
let cutGateway: RunningService;
let cutDeliverer: RunningService;
let endpointId: string;
let targetId: string;
let seq = 0;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  second = await TestReceiver.start();
  const redis = new URL(infra.redisUrl);
  proxy = new TcpProxy(redis.hostname, Number(redis.port || 6379));
  await proxy.start();
  stack = await startStack('told', { only: ['ingest-gateway', 'management-api', 'webhook-deliverer'] });
  const viaProxy = { ...stack.env, REDIS_URL: `redis://127.0.0.1:${proxy.port}` };
  cutGateway = await startService('ingest-gateway', viaProxy);
  cutDeliverer = await startService('webhook-deliverer', viaProxy);
  endpointId = (
    await must(stack.client.POST('/v1/endpoints', { body: { name: 'told', rate_limit_per_minute: 100000 } }))
  ).id;
  targetId = (
    await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId } },
        body: { kind: 'webhook', name: 'r', config: { url: receiver.url(), enforce_https: false } },
      }),
    )
  ).id;
});

afterAll(async () => {
  await proxy?.restore();
  await Promise.all([cutGateway?.stop(), cutDeliverer?.stop()]);
  await stack?.stop();
  await proxy?.stop();
  await receiver?.close();
  await second?.close();
});

const gateways = (): RunningService[] => [stack.services['ingest-gateway']!, cutGateway];
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One event through `gw`; the body names it, so the receivers can tell which arrived. */
async function send(
  gw: RunningService,
  opts: { bytes?: number; method?: string } = {},
): Promise<{ status: number; id: string }> {
  const id = `told-${++seq}`;
  const body = JSON.stringify({ id, pad: 'x'.repeat(Math.max(0, (opts.bytes ?? 100) - 40)) });
  const res = await fetch(`${gw.url}/relay/${endpointId}`, {
    method: opts.method ?? 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  await res.arrayBuffer();
  return { status: res.status, id };
}

const statuses = async (opts: { bytes?: number; method?: string } = {}): Promise<number[]> =>
  Promise.all(gateways().map(async (gw) => (await send(gw, opts)).status));
const arrived = (r: TestReceiver, id: string): boolean => r.requests.some((q) => q.body.includes(`"${id}"`));

/** The deliverers' "delivery attempt" log lines written after `marks` (output lengths taken earlier). */
function attemptsSince(marks: number[]): { state: string; error: string | null }[][] {
  return [stack.services['webhook-deliverer']!, cutDeliverer].map((d, i) =>
    d
      .output()
      .slice(marks[i])
      .split('\n')
      .filter((l) => l.includes('"delivery attempt"'))
      .map((l) => JSON.parse(l) as { state: string; error: string | null }),
  );
}
const outputMarks = (): number[] => [stack.services['webhook-deliverer']!, cutDeliverer].map((d) => d.output().length);

async function patchEndpoint(body: EndpointPatch): Promise<void> {
  await must(stack.client.PATCH('/v1/endpoints/{endpointId}', { params: { path: { endpointId } }, body }));
}
async function patchPlan(body: PlanPatch): Promise<void> {
  await must(stack.client.PATCH('/v1/account/plan', { body }));
}

describe('changes made through the API are in force at every gateway and deliverer within 1 s', () => {
  it('an endpoint setting and the plan, at both gateways', async () => {
    expect(await statuses()).toEqual([202, 202]); // cached by both now
    await patchEndpoint({ methods: ['PUT'] });
    await sleep(IN_FORCE_MS);
    expect(await statuses()).toEqual([405, 405]);
    await patchEndpoint({ methods: ['POST'] });
    await patchPlan({ payload_limit_bytes: 2048 });
    await sleep(IN_FORCE_MS);
    expect(await statuses({ bytes: 4096 })).toEqual([413, 413]);
    await patchPlan({ payload_limit_bytes: 262144 });
    await sleep(IN_FORCE_MS);
    expect(await statuses({ bytes: 4096 })).toEqual([202, 202]);
  });

  it('a new target: both gateways route to it', async () => {
    const added = (
      await must(
        stack.client.POST('/v1/endpoints/{endpointId}/targets', {
          params: { path: { endpointId } },
          body: { kind: 'webhook', name: 'second', config: { url: second.url(), enforce_https: false } },
        }),
      )
    ).id;
    await sleep(IN_FORCE_MS);
    const ids = await Promise.all(gateways().map(async (gw) => (await send(gw)).id));
    await eventually(async () => ids.every((id) => arrived(second, id)), 10000, 'both events at the second target');
    await must(
      stack.client.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}', {
        params: { path: { endpointId, targetId: added } },
      }),
    );
  });

  it('a flag set by one deliverer stops both; cleared through the API, both deliver again', async () => {
    receiver.respondWith({ status: 410, body: 'gone' });
    await send(stack.services['ingest-gateway']!);
    await eventually(
      async () => (await modelsOf(stack.store).targets.findById(targetId).lean())?.flagged,
      10000,
      'the flag',
    );
    receiver.respondWith({ status: 200, body: 'ok' });
    await sleep(IN_FORCE_MS);
    const flaggedMarks = outputMarks();
    const before = receiver.requests.length;
    for (let i = 0; i < 10; i++) await send(gateways()[i % 2]!);
    const stopped = await eventually(
      async () => {
        const seen = attemptsSince(flaggedMarks);
        return seen.flat().length >= 10 && seen;
      },
      10000,
      '10 attempts',
    );
    expect(stopped.map((d) => d.length > 0)).toEqual([true, true]);
    expect(stopped.flat().every((a) => a.error?.startsWith('target flagged'))).toBe(true);
    expect(receiver.requests.length).toBe(before);

    await must(
      stack.client.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}/flag', {
        params: { path: { endpointId, targetId } },
      }),
    );
    await sleep(IN_FORCE_MS);
    const clearedMarks = outputMarks();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await send(gateways()[i % 2]!)).id);
    await eventually(async () => ids.every((id) => arrived(receiver, id)), 10000, 'the 10 events delivered');
    // the attempts are logged after the answer, which the receiver sends after recording the request
    const delivered = await eventually(
      async () => {
        const seen = attemptsSince(clearedMarks);
        return seen.flat().length >= 10 && seen;
      },
      10000,
      'the 10 attempts logged',
    );
    expect(delivered.map((d) => d.length > 0 && d.every((a) => a.state === 'delivered'))).toEqual([true, true]);
  });
});

describe('a lost Redis connection (cut by the proxy, the counter reset as by a restart) leaves no stale setting past the bound', () => {
  it('while cut, changes reach the cut gateway and deliverer by revalidation within 1 s; after, by announcement', async () => {
    // the cut deliverer alone consumes, so its cache decides every delivery
    await stack.services['webhook-deliverer']!.stop();
    expect(await statuses()).toEqual([202, 202]);
    await proxy.cut();
    // a Redis restart without persistence starts the change numbers again
    await stack.redis.del(cacheChangesSeqKey(stack.namespace));

    await patchEndpoint({ methods: ['PUT'] });
    await sleep(IN_FORCE_MS);
    expect(await statuses()).toEqual([405, 405]);
    await patchEndpoint({ methods: ['POST'] });
    await patchPlan({ payload_limit_bytes: 2048 });
    await sleep(IN_FORCE_MS);
    expect(await statuses({ bytes: 4096 })).toEqual([413, 413]);
    await patchPlan({ payload_limit_bytes: 262144 });

    // flagged by the cut deliverer itself (its announcement cannot go out), cleared through the API
    receiver.respondWith({ status: 410, body: 'gone' });
    await send(stack.services['ingest-gateway']!);
    await eventually(
      async () => (await modelsOf(stack.store).targets.findById(targetId).lean())?.flagged,
      10000,
      'the flag',
    );
    receiver.respondWith({ status: 200, body: 'ok' });
    await must(
      stack.client.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}/flag', {
        params: { path: { endpointId, targetId } },
      }),
    );
    await sleep(IN_FORCE_MS);
    const marks = outputMarks();
    const first = await send(stack.services['ingest-gateway']!);
    await eventually(async () => arrived(receiver, first.id), 10000, 'the event delivered by the cut deliverer');
    // the receiver has the request before the deliverer has its answer and logs the attempt
    const attempts = await eventually(
      async () => {
        const seen = attemptsSince(marks)[1]!;
        return seen.length > 0 && seen;
      },
      10000,
      "the cut deliverer's attempt logged",
    );
    expect(attempts.map((a) => a.state)).toEqual(['delivered']);

    const heard = (): number => cutGateway.output().split('cache change announcements heard again').length;
    const heardBefore = heard();
    await proxy.restore();
    await eventually(async () => heard() > heardBefore, 10000, 'the cut gateway to hear again');
    await patchEndpoint({ methods: ['PUT'] });
    await sleep(IN_FORCE_MS);
    expect(await statuses()).toEqual([405, 405]);
    // revalidation, not a dropped cache: the cut gateway never failed a lookup
    expect(cutGateway.output()).not.toContain('endpoint_unavailable');
  });
});
