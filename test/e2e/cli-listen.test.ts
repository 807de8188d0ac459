import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sign } from '@octokit/webhooks-methods';
import WebSocket from 'ws';
import { must } from '@relay/client';
import type { ActivityRow } from '@relay/client';
import { eventually } from '../support/infra';
import { relayListen, runRelay } from '../support/relay-cli';
import type { RelayProcess } from '../support/relay-cli';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/*
 * End to end: `npx relay listen <endpoint> --forward <local URL>` spawned as a
 * process against the real gateway, outputs deliverer, management API and activity-writer on
 * the real RabbitMQ, Redis and store. A GitHub-signed event sent to the gateway reaches a local
 * HTTP server through the CLI, and the local answer is the attempt's outcome in the activity
 * log; a CLI killed with SIGKILL mid-stream loses nothing (docs/cli.md "Losing nothing").
 */

const GITHUB_SECRET = 'cli-e2e-github-secret-0001';

/** A local server as a developer runs one: records each request, answers 200 after `delayMs`. */
class LocalServer {
  readonly received: Array<{ headers: http.IncomingHttpHeaders; body: string; url: string }> = [];
  delayMs = 0;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), url: req.url ?? '' });
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks'), this.delayMs);
    });
  });
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  eventIds(): Set<string> {
    return new Set(this.received.map((r) => String(r.headers['x-relay-event-id'])));
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let stack: Stack;
let outputs: RunningService;
let local: LocalServer;
let localUrl: string;
let endpointId: string;
let configHome: string;
const running: RelayProcess[] = [];
let firstEvent = '';

beforeAll(async () => {
  stack = await startStack('clilisten');
  outputs = await startService('outputs-deliverer', stack.env);
  local = new LocalServer();
  localUrl = await local.start();
  configHome = mkdtempSync(path.join(tmpdir(), 'relay-cli-e2e-'));
  const created = await must(
    stack.client.POST('/v1/endpoints', {
      body: {
        name: 'github to my laptop',
        rate_limit_per_minute: 100000,
        inbound_auth: { type: 'HMAC', preset: 'github', secrets: [GITHUB_SECRET] },
      },
    }),
  );
  endpointId = created.id;
});

afterAll(async () => {
  await Promise.all(running.map((p) => p.kill('SIGKILL')));
  // with its CLI session targets and their backlogs on the shared broker
  if (endpointId) await stack.client.DELETE('/v1/endpoints/{endpointId}', { params: { path: { endpointId } } });
  await outputs?.stop();
  await stack?.stop();
  await local?.close();
  rmSync(configHome, { recursive: true, force: true });
});

async function listening(): Promise<RelayProcess> {
  const p = await relayListen([endpointId, '--forward', localUrl], {
    XDG_CONFIG_HOME: configHome,
    RELAY_API_URL: stack.services['management-api']!.url,
    RELAY_API_KEY: stack.apiKey,
  });
  running.push(p);
  return p;
}

/** What GitHub sends: a JSON push with X-Hub-Signature-256 over the raw body and a delivery GUID. */
async function sendGithubEvent(n: number): Promise<string> {
  const body = JSON.stringify({
    ref: 'refs/heads/main',
    after: `commit-${n}`,
    repository: { full_name: 'octo/hello' },
  });
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': await sign(GITHUB_SECRET, body),
      'user-agent': 'GitHub-Hookshot/e2e',
    },
    body,
  });
  expect(res.status).toBe(202);
  // the gateway names the event it accepted (docs/ingest.md)
  return res.headers.get('x-relay-event-id')!;
}

const activityRow = (eventId: string): Promise<ActivityRow> =>
  must(stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } }));

async function completed(eventId: string): Promise<ActivityRow> {
  return eventually(
    async () => {
      const row = await activityRow(eventId);
      return row.status === 'completed' && row;
    },
    90_000,
    `event ${eventId} completed`,
  );
}

describe('relay listen: live deliveries forwarded to localhost', () => {
  it('a GitHub-signed event sent to the gateway reaches the local server through `npx relay listen`; the local answer is the attempt outcome', async () => {
    const cli = await listening();
    // the endpoint had no CLI session target: listen made one, and said so
    expect(cli.stderr()).toMatch(/Created CLI session target tg_\w+/);
    const targets = (
      await must(stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }))
    ).data;
    expect(targets).toEqual([
      expect.objectContaining({ kind: 'cli', name: 'relay listen', config: { in_flight: 10 } }),
    ]);

    const eventId = await sendGithubEvent(1);
    firstEvent = eventId;
    const got = await eventually(
      async () => local.received.find((r) => r.headers['x-relay-event-id'] === eventId),
      30_000,
      'the event at the local server',
    );
    expect(got.url).toBe('/hook');
    expect(JSON.parse(got.body)).toMatchObject({ after: 'commit-1', repository: { full_name: 'octo/hello' } });
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'x-github-event': 'push',
      'user-agent': 'GitHub-Hookshot/e2e',
      'x-relay-attempt': '1',
    });
    expect(got.headers['x-relay-delivery-id']).toMatch(/^dlv_/);
    // the gateway verified the signature and strips inbound-auth headers before anything leaves it
    expect(got.headers['x-hub-signature-256']).toBeUndefined();

    // one line per event: time, event id, status, latency
    await eventually(async () => cli.stdout().includes(eventId), 10_000, 'the printed line');
    expect(cli.stdout()).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  ${eventId}  200 +\\d+ ms  attempt 1$`, 'm'),
    );

    const row = await completed(eventId);
    expect(row.deliveries).toEqual([
      expect.objectContaining({
        target_kind: 'cli',
        state: 'delivered',
        attempts: [expect.objectContaining({ status_code: 200, state: 'delivered' })],
      }),
    ]);
    await cli.kill('SIGTERM');
  });

  it('SIGKILL mid-stream loses nothing: in-flight deliveries and events sent while no CLI listens reach the next session', async () => {
    local.delayMs = 1_500;
    const first = await listening();
    const sent = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => sendGithubEvent(100 + n)));
    // mid-stream: the local server has some, not all
    await eventually(
      async () => local.received.some((r) => sent.includes(String(r.headers['x-relay-event-id']))),
      30_000,
      'the first forward at the local server',
    );
    await first.kill('SIGKILL');
    // sent while nobody listens: retried on the schedule until a session takes them
    const during = [await sendGithubEvent(201), await sendGithubEvent(202)];
    local.delayMs = 0;
    const second = await listening();
    const all = [...sent, ...during];
    await eventually(
      async () => all.every((id) => local.eventIds().has(id)),
      120_000,
      'every event at the local server',
    );
    for (const id of all) {
      const row = await completed(id);
      const attempts = row.deliveries[0]!.attempts;
      expect(attempts.at(-1)).toMatchObject({ state: 'delivered', status_code: 200 });
    }
    // a forward the killed CLI held was answered as gone by the server and attempted again
    const retried = await Promise.all(sent.map(async (id) => (await activityRow(id)).deliveries[0]!.attempts));
    expect(
      retried.some(
        (attempts) =>
          attempts.length > 1 && /session ended before the local server answered/.test(attempts[0]!.error ?? ''),
      ),
    ).toBe(true);
    // the events nobody listened for were first recorded as waiting for a session
    const waited = await activityRow(during[0]!);
    expect(JSON.stringify(waited.deliveries[0]!.attempts[0])).toMatch(/no relay listen session|session ended/);
    await second.kill('SIGTERM');
  });

  it('the thin commands: login keeps the key 0600; endpoints, targets, activity tail and resend read and act through it', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'relay-login-'));
    try {
      const env = { XDG_CONFIG_HOME: home };
      const apiUrl = stack.services['management-api']!.url;
      const bad = await runRelay(['--api-url', apiUrl, 'login', '--key', 'rk_not_a_key'], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/\(unauthorized\)/);
      const login = await runRelay(['--api-url', apiUrl, 'login', '--key', stack.apiKey], env);
      expect(login.code).toBe(0);
      const file = path.join(home, 'relay', 'config.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);

      // every command below finds the API and the key in the stored login alone
      const endpoints = await runRelay(['endpoints'], env);
      expect(endpoints.stdout).toContain(`${endpointId}  github to my laptop`);
      const targets = await runRelay(['targets', endpointId], env);
      expect(targets.stdout).toMatch(new RegExp(`^tg_\\w+  cli +enabled   relay listen$`, 'm'));
      const tail = await runRelay(['activity', 'tail', '--endpoint', endpointId, '--limit', '200', '--no-follow'], env);
      expect(tail.code).toBe(0);
      expect(tail.stdout).toMatch(new RegExp(`  ${firstEvent}  ${endpointId}  ACCEPTED +completed`));
      const resent = await runRelay(['resend', firstEvent], env);
      expect(resent.code).toBe(0);
      expect(resent.stdout).toMatch(new RegExp(`^${firstEvent}  dlv_\\w+  → tg_\\w+ \\(cli\\)$`, 'm'));
      const unknown = await runRelay(['resend', 'evt_nope'], env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/^relay: .+ \(\w+\)$/m);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('relay transform test: a draft from a file run on stored requests, printed per request', () => {
  const DRAFT = [
    '(request, context) => {',
    "  console.log('title', request.body.title)",
    "  if (!request.body.n) throw new Error('n is required')",
    '  return { ...request, body: { summary: `${request.body.action}: ${request.body.title}`, target: context.target && context.target.name } }',
    '}',
  ].join('\n');
  // a C1 control (CSI) and a bidi override from the sender: JSON.stringify passes both through
  const TITLE = 'fix\u009b31m\u202e';
  const SHOWN = 'fix\\u009B31m\\u202E';
  let drafts: string;
  let ran: string;
  let threw: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    drafts = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'transform drafts' } }))).id;
    const send = async (body: unknown): Promise<string> => {
      const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${drafts}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(202);
      return res.headers.get('x-relay-event-id')!;
    };
    ran = await send({ action: 'opened', title: TITLE, n: 1 });
    threw = await send({ action: 'closed', title: 'x', n: 0 });
    // the rows and payloads written: the preview finds both requests
    await eventually(
      async () => {
        const res = await stack.client.POST('/v1/endpoints/{endpointId}/transformations/preview', {
          params: { path: { endpointId: drafts } },
          body: { code: '(r) => r', event_ids: [ran, threw] },
        });
        return res.data?.data.every((r) => r.input) === true;
      },
      30_000,
      'both requests stored',
    );
    writeFileSync(path.join(configHome, 'draft.js'), DRAFT);
    env = {
      XDG_CONFIG_HOME: configHome,
      RELAY_API_URL: stack.services['management-api']!.url,
      RELAY_API_KEY: stack.apiKey,
    };
  });

  it('ran: exit 0; the output, the diff and the console line, with the sender’s control characters escaped', async () => {
    const got = await runRelay(['transform', 'test', '--file', path.join(configHome, 'draft.js'), '--event', ran], env);
    expect(got.code).toBe(0);
    const lines = got.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${ran}  ran in [\\d.]+ ms$`));
    expect(lines).toEqual(
      expect.arrayContaining([
        '  output:',
        `        "summary": "opened: ${SHOWN}",`,
        '        "target": null',
        '  diff (5 changes):',
        `    body.summary: (none) → "opened: ${SHOWN}"`,
        `    body.title: "${SHOWN}" → (none)`,
        '  logs:',
        `    title ${SHOWN}`,
      ]),
    );
    expect(got.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  });

  it('threw: exit 1, the error with its line; several events of one endpoint in the order given; --target gives its context', async () => {
    const target = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId: drafts } },
        body: { kind: 'cli', name: 'partner feed', enabled: false, config: {} },
      }),
    );
    const file = path.join(configHome, 'draft.js');
    const one = await runRelay(['transform', 'test', '--file', file, '--event', threw], env);
    expect(one.code).toBe(1);
    expect(one.stdout.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${threw}  failed in [\\d.]+ ms$`)),
      '  error: line 3: Error: n is required',
      '  logs:',
      '    title x',
      '',
    ]);
    const both = await runRelay(
      ['transform', 'test', '--file', file, '--event', threw, '--event', ran, '--target', target.id],
      env,
    );
    expect(both.code).toBe(1);
    expect(both.stdout.indexOf(`${threw}  failed`)).toBeLessThan(both.stdout.indexOf(`${ran}  ran`));
    expect(both.stdout).toContain('        "target": "partner feed"');
    const unknown = await runRelay(['transform', 'test', '--file', file, '--event', 'evt_nope'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^relay: .+ \(\w+\)$/m);
  });
});

/** Opens `GET /v1/endpoints/{id}/listen` as the CLI does: the refusal's status and JSON body, or the open socket after its hello. */
function upgrade(
  pathAndQuery: string,
  key: string | null,
): Promise<{ status: number; body: any } | { ws: WebSocket; hello: any }> {
  const url = `${stack.services['management-api']!.url.replace(/^http/, 'ws')}${pathAndQuery}`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, key ? { headers: { authorization: `Bearer ${key}` } } : {});
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    ws.once('message', (data) => resolve({ ws, hello: JSON.parse(data.toString()) }));
    ws.on('error', (err) => reject(err));
  });
}

describe('relay listen: refusals are documented JSON errors before any WebSocket; the limits hold', () => {
  let listened: string;
  let target: string;
  beforeAll(async () => {
    listened = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'listened' } }))).id;
    target = (
      await must(
        stack.client.POST('/v1/endpoints/{endpointId}/targets', {
          params: { path: { endpointId: listened } },
          body: { kind: 'cli', name: 'laptops', config: {} },
        }),
      )
    ).id;
  });

  const refusals: Array<[string, number, string, () => [string, string | null]]> = [
    ['no API key', 401, 'unauthorized', () => [`/v1/endpoints/${listened}/listen`, null]],
    [
      'an unknown endpoint',
      404,
      'endpoint_not_found',
      () => ['/v1/endpoints/ep_00000000000000000000/listen', stack.apiKey],
    ],
    [
      'a target that is not a CLI session target of the endpoint',
      404,
      'target_not_found',
      () => [`/v1/endpoints/${listened}/listen?target_id=tg_nope`, stack.apiKey],
    ],
    ['another path', 404, 'not_found', () => [`/v1/endpoints/${listened}/talk`, stack.apiKey]],
  ];
  it.each(refusals)('%s → %i %s', async (_name, status, code, args) => {
    const [where, key] = args();
    expect(await upgrade(where, key)).toEqual({ status, body: { code, message: expect.any(String) } });
  });

  it('a viewer key → 403 forbidden, naming the role it needs', async () => {
    const viewer = (await must(stack.client.POST('/v1/api-keys', { body: { role: 'viewer', name: 'reader' } }))).secret;
    const got = await upgrade(`/v1/endpoints/${listened}/listen`, viewer);
    expect(got).toEqual({
      status: 403,
      body: { code: 'forbidden', message: expect.stringContaining('needs editor or higher') },
    });
  });

  it('an endpoint without a CLI session target → 409 no_cli_target', async () => {
    const bare = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'no cli target' } }))).id;
    expect(await upgrade(`/v1/endpoints/${bare}/listen`, stack.apiKey)).toEqual({
      status: 409,
      body: { code: 'no_cli_target', message: expect.stringContaining(bare) },
    });
  });

  it('at most 5 sessions per endpoint: the sixth gets 429 too_many_sessions, and a slot frees when a session ends', async () => {
    const open: WebSocket[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const got = await upgrade(`/v1/endpoints/${listened}/listen`, stack.apiKey);
        if (!('ws' in got)) throw new Error(`session ${i + 1} refused: ${JSON.stringify(got)}`);
        expect(got.hello).toMatchObject({ type: 'hello', endpoint_id: listened, target_id: target, in_flight: 10 });
        open.push(got.ws);
      }
      expect(await upgrade(`/v1/endpoints/${listened}/listen`, stack.apiKey)).toEqual({
        status: 429,
        body: { code: 'too_many_sessions', message: expect.any(String) },
      });
      open.shift()!.close();
      const sixth = await eventually(
        async () => {
          const got = await upgrade(`/v1/endpoints/${listened}/listen`, stack.apiKey);
          return 'ws' in got && got.ws;
        },
        20_000,
        'a freed slot',
      );
      open.push(sixth);
    } finally {
      open.forEach((ws) => ws.close());
    }
  });

  it('a frame that is not an ack ends the session (close 1008)', async () => {
    const got = await eventually(
      async () => {
        const g = await upgrade(`/v1/endpoints/${listened}/listen`, stack.apiKey);
        return 'ws' in g && g;
      },
      20_000,
      'a session',
    );
    const closed = new Promise<number>((resolve) => got.ws.once('close', (code) => resolve(code)));
    got.ws.send(JSON.stringify({ type: 'ack', id: 'x', outcome: { status: 99, duration_ms: 1 } }));
    await expect(closed).resolves.toBe(1008);
  });

  it('a CLI that never acks does not hold its in-flight slot: after the wait the forward is given up and the next one comes', async () => {
    const one = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'silent laptop' } }))).id;
    await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId: one } },
        body: { kind: 'cli', name: 'one at a time', config: { in_flight: 1 } },
      }),
    );
    const got = await upgrade(`/v1/endpoints/${one}/listen`, stack.apiKey);
    if (!('ws' in got)) throw new Error(`refused: ${JSON.stringify(got)}`);
    const frames: any[] = [];
    got.ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
    try {
      const send = async (n: number): Promise<string> => {
        const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${one}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ n }),
        });
        expect(res.status).toBe(202);
        return res.headers.get('x-relay-event-id')!;
      };
      const first = await send(1);
      await eventually(async () => frames.some((f) => f.forward?.event_id === first), 30_000, 'the first forward');
      const second = await send(2);
      // never acked, the first holds the one slot until the session gives it up; then the second arrives
      await eventually(async () => frames.some((f) => f.forward?.event_id === second), 90_000, 'the second forward');
    } finally {
      got.ws.close();
    }
    // the sum of its waits
  }, 150_000);
});
