import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import type { ChannelModel } from 'amqplib';
import { must } from '@relay/client';
import type { ActivityRow } from '@relay/client';
import { cliBacklogQueue } from '@relay/contracts';
import { inMirrorSample } from '@relay/targets';
import { activityRowWhen } from '../support/api-client';
import { eventually, infra } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import { relayListen } from '../support/relay-cli';
import type { RelayProcess, RelayProcessOptions } from '../support/relay-cli';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/*
 * End to end, `relay listen`'s backlog and mirror (docs/cli.md "The backlog", "Mirror"): the
 * real gateway, outputs and webhook deliverers, management API and activity-writer on the real
 * RabbitMQ, Redis and store, and `npx relay listen` as a process.
 */

const BACKLOG_EVENTS = 500;

let stack: Stack;
let outputs: RunningService;
let broker: ChannelModel;
let configHome: string;
const receivers: TestReceiver[] = [];
const running: RelayProcess[] = [];

beforeAll(async () => {
  stack = await startStack('clibacklog');
  outputs = await startService('outputs-deliverer', stack.env);
  broker = await amqp.connect(infra.rabbitmqUrl);
  configHome = mkdtempSync(path.join(tmpdir(), 'relay-cli-backlog-'));
});

afterAll(async () => {
  await Promise.all(running.map((p) => p.kill('SIGKILL')));
  await outputs?.stop();
  await broker?.close();
  await stack?.stop();
  await Promise.all(receivers.map((r) => r.close()));
  rmSync(configHome, { recursive: true, force: true });
});

async function receiver(): Promise<TestReceiver> {
  const r = await TestReceiver.start();
  receivers.push(r);
  return r;
}

async function endpoint(name: string): Promise<string> {
  return (await must(stack.client.POST('/v1/endpoints', { body: { name, rate_limit_per_minute: 100000 } }))).id;
}

async function listening(args: string[], opts: RelayProcessOptions = {}): Promise<RelayProcess> {
  const p = await relayListen(
    args,
    {
      XDG_CONFIG_HOME: configHome,
      RELAY_API_URL: stack.services['management-api']!.url,
      RELAY_API_KEY: stack.apiKey,
    },
    opts,
  );
  running.push(p);
  return p;
}

/** One event, sent and accepted before the next: the order they are sent is the order accepted. */
async function send(endpointId: string, n: number): Promise<string> {
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ n }),
  });
  expect(res.status).toBe(202);
  return res.headers.get('x-relay-event-id')!;
}

const eventIdsAt = (r: TestReceiver): string[] => r.requests.map((q) => String(q.headers['x-relay-event-id']));

const activityRow = (eventId: string): Promise<ActivityRow> =>
  must(stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } }));

const completed = (eventId: string): Promise<ActivityRow> =>
  activityRowWhen(stack.client, eventId, (r) => r.status === 'completed', `event ${eventId} completed`, 60_000);

async function backlogDepth(targetId: string): Promise<number | null> {
  const ch = await broker.createChannel();
  ch.on('error', () => undefined);
  try {
    return (await ch.checkQueue(cliBacklogQueue(stack.namespace, targetId))).messageCount;
  } catch {
    return null; // no such queue (checking it closed the channel)
  } finally {
    await ch.close().catch(() => undefined);
  }
}

describe('relay listen: the backlog', () => {
  it(`${BACKLOG_EVENTS} events sent while the CLI is away are kept, counted first, and delivered in acceptance order after reconnect, with live events sent during the drain behind them`, async () => {
    const local = await receiver();
    const endpointId = await endpoint('laptop asleep');
    const target = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId } },
        body: { kind: 'cli', name: 'relay listen', config: {} },
      }),
    );

    const sent: string[] = [];
    for (let n = 1; n <= BACKLOG_EVENTS; n++) sent.push(await send(endpointId, n));
    await eventually(
      async () => (await backlogDepth(target.id)) === BACKLOG_EVENTS,
      120_000,
      `${BACKLOG_EVENTS} deliveries in the backlog`,
    );
    // while it waits, the row says why, and no next attempt is set
    const waiting = await activityRow(sent[0]!);
    expect(waiting.status).toBe('pending');
    expect(waiting.deliveries[0]!.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        state: 'retrying',
        next_attempt_at: null,
        error: 'no relay listen session is connected for this target; kept in its backlog for the next session',
      }),
    ]);

    // what it says (stderr) and what it delivered (stdout) in one record, in the order it wrote them
    const cli = await listening([endpointId, '--forward', local.url(), '--target', target.id], { merged: true });
    await eventually(
      async () => cli.stdout().includes(`${BACKLOG_EVENTS} events kept while no session listened`),
      10_000,
      'the count, said first',
    );
    // live events accepted while the backlog drains come after it
    await eventually(async () => local.requests.length >= 50, 60_000, 'the drain under way');
    for (let n = 1; n <= 5; n++) sent.push(await send(endpointId, BACKLOG_EVENTS + n));
    await eventually(async () => local.requests.length >= sent.length, 120_000, 'every event at the local server');

    expect(eventIdsAt(local)).toEqual(sent);
    // the count comes after the session opened and before the first delivered event's line
    const lines = cli.stdout().split('\n');
    const at = (what: string): number => lines.findIndex((line) => line.includes(what));
    const count = at(`${BACKLOG_EVENTS} events kept while no session listened`);
    const firstDelivered = lines.findIndex((line) => / {2}evt_\S+ {2}/.test(line)); // time, event id, status…
    expect(count).toBeGreaterThan(at('Listening on'));
    expect(firstDelivered).toBeGreaterThan(count);
    expect(lines[firstDelivered]).toContain(sent[0]!);
    const first = await completed(sent[0]!);
    expect(first.deliveries[0]!.attempts.map((a) => [a.attempt, a.state, a.status_code])).toEqual([
      [1, 'retrying', null],
      [2, 'delivered', 200],
    ]);
    await completed(sent.at(-1)!);
    expect(await backlogDepth(target.id)).toBe(0);

    // deleting the target deletes its backlog
    await cli.kill('SIGTERM');
    await must(
      stack.client.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}', {
        params: { path: { endpointId, targetId: target.id } },
      }),
    );
    expect(await backlogDepth(target.id)).toBeNull();
  });
});

describe('relay listen --mirror', () => {
  it("a mirror session receives its sample of the endpoint's events, chosen by event id; the production target gets every event, once each; unsampled rows do not name it and a resend follows the sample", async () => {
    const production = await receiver();
    const local = await receiver();
    const endpointId = await endpoint('production with a mirror');
    const webhook = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId } },
        body: { kind: 'webhook', name: 'production', config: { url: production.url(), enforce_https: false } },
      }),
    );
    const cli = await listening([endpointId, '--forward', local.url(), '--mirror', '25%']);
    const mirror = /Created 25% mirror target (tg_\w+)/.exec(cli.stderr())![1]!;

    const sent: string[] = [];
    for (let n = 1; n <= 40; n++) sent.push(await send(endpointId, n));
    const sampled = sent.filter((id) => inMirrorSample(id, 25));
    expect(sampled.length).toBeGreaterThan(0);
    expect(sampled.length).toBeLessThan(sent.length);

    await eventually(async () => production.requests.length >= sent.length, 60_000, 'every event at production');
    await eventually(async () => local.requests.length >= sampled.length, 60_000, 'the sample at the mirror');
    expect(eventIdsAt(production).sort()).toEqual([...sent].sort());
    // live deliveries go out concurrently (in_flight): the same events, in no promised order
    expect(eventIdsAt(local).sort()).toEqual([...sampled].sort());

    for (const id of [sampled[0]!, sent.find((e) => !sampled.includes(e))!]) {
      const row = await completed(id);
      const ofProduction = row.deliveries.filter((d) => d.target_id === webhook.id);
      expect(ofProduction.map((d) => d.attempts.map((a) => a.state))).toEqual([['delivered']]);
      expect(row.target_count).toBe(sampled.includes(id) ? 2 : 1);
      expect(row.not_routed).toEqual([]);
    }
    // the mirror's sample sees no production traffic twice: nothing beyond the events sent
    expect(production.requests).toHaveLength(sent.length);
    await cli.kill('SIGTERM');

    // a resend follows the gateway's sample: the mirror again only for an event in it
    const resentTo = async (eventId: string): Promise<string[]> =>
      (
        await must(stack.client.POST('/v1/activity/{eventId}/resend', { params: { path: { eventId } }, body: {} }))
      ).deliveries.map((d) => d.target_id);
    expect(await resentTo(sampled[0]!)).toEqual(expect.arrayContaining([webhook.id, mirror]));
    expect(await resentTo(sent.find((e) => !sampled.includes(e))!)).toEqual([webhook.id]);

    // the resent sampled event waits in the mirror's backlog (its CLI has gone); deleting the
    // endpoint deletes its CLI session targets' backlogs
    await eventually(async () => (await backlogDepth(mirror)) === 1, 30_000, 'the resend kept for the mirror');
    await must(stack.client.DELETE('/v1/endpoints/{endpointId}', { params: { path: { endpointId } } }));
    expect(await backlogDepth(mirror)).toBeNull();
  });
});
