import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sign } from '@octokit/webhooks-methods';
import { eventually } from '../support/infra';
import { relayListen, runRelay } from '../support/relay-cli';
import type { RelayProcess } from '../support/relay-cli';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/*
 * Issue 28 item 2, end to end: `npx relay listen <endpoint> --forward <local URL>` spawned as a
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
  stack = await startStack('clilisten', { only: ['ingest-gateway', 'management-api', 'activity-writer'] });
  outputs = await startService('outputs-deliverer', stack.env);
  local = new LocalServer();
  localUrl = await local.start();
  configHome = mkdtempSync(path.join(tmpdir(), 'relay-cli-e2e-'));
  const created = await stack.api('/v1/endpoints', {
    method: 'POST',
    body: { name: 'github to my laptop', rate_limit_per_minute: 100000, inbound_auth: { type: 'HMAC', preset: 'github', secrets: [GITHUB_SECRET] } },
  });
  expect(created.status).toBe(201);
  endpointId = created.body.id;
});

afterAll(async () => {
  await Promise.all(running.map((p) => p.kill('SIGKILL')));
  await outputs?.stop();
  await stack?.stop();
  await local?.close();
  rmSync(configHome, { recursive: true, force: true });
});

async function listening(): Promise<RelayProcess> {
  const p = await relayListen([endpointId, '--forward', localUrl], { XDG_CONFIG_HOME: configHome, RELAY_API_URL: stack.services['management-api']!.url, RELAY_API_KEY: stack.apiKey });
  running.push(p);
  return p;
}

/** What GitHub sends: a JSON push with X-Hub-Signature-256 over the raw body and a delivery GUID. */
async function sendGithubEvent(n: number): Promise<string> {
  const body = JSON.stringify({ ref: 'refs/heads/main', after: `commit-${n}`, repository: { full_name: 'octo/hello' } });
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': await sign(GITHUB_SECRET, body), 'user-agent': 'GitHub-Hookshot/e2e' },
    body,
  });
  expect(res.status).toBe(202);
  // the gateway names the event it accepted (docs/ingest.md)
  return res.headers.get('x-relay-event-id')!;
}

async function completed(eventId: string): Promise<any> {
  return eventually(async () => {
    const row = (await stack.api(`/v1/activity/${eventId}`)).body;
    return row.status === 'completed' && row;
  }, 90_000, `event ${eventId} completed`);
}

describe('relay listen: live deliveries forwarded to localhost (issue 28, item 2)', () => {
  it('a GitHub-signed event sent to the gateway reaches the local server through `npx relay listen`; the local answer is the attempt outcome', async () => {
    const cli = await listening();
    // the endpoint had no CLI session target: listen made one, and said so
    expect(cli.stderr()).toMatch(/Created CLI session target tg_\w+/);
    const targets = (await stack.api(`/v1/endpoints/${endpointId}/targets`)).body.data;
    expect(targets).toEqual([expect.objectContaining({ kind: 'cli', name: 'relay listen', config: { in_flight: 10 } })]);

    const eventId = await sendGithubEvent(1);
    firstEvent = eventId;
    const got = await eventually(async () => local.received.find((r) => r.headers['x-relay-event-id'] === eventId), 30_000, 'the event at the local server');
    expect(got.url).toBe('/hook');
    expect(JSON.parse(got.body)).toMatchObject({ after: 'commit-1', repository: { full_name: 'octo/hello' } });
    expect(got.headers).toMatchObject({ 'content-type': 'application/json', 'x-github-event': 'push', 'user-agent': 'GitHub-Hookshot/e2e', 'x-relay-attempt': '1' });
    expect(got.headers['x-relay-delivery-id']).toMatch(/^dlv_/);
    // the gateway verified the signature and strips inbound-auth headers before anything leaves it
    expect(got.headers['x-hub-signature-256']).toBeUndefined();

    // one line per event: time, event id, status, latency
    await eventually(async () => cli.stdout().includes(eventId), 10_000, 'the printed line');
    expect(cli.stdout()).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  ${eventId}  200 +\\d+ ms  attempt 1$`, 'm'));

    const row = await completed(eventId);
    expect(row.deliveries).toEqual([expect.objectContaining({ target_kind: 'cli', state: 'delivered', attempts: [expect.objectContaining({ status_code: 200, state: 'delivered' })] })]);
    await cli.kill('SIGTERM');
  });

  it('SIGKILL mid-stream loses nothing: in-flight deliveries and events sent while no CLI listens reach the next session', async () => {
    local.delayMs = 1_500;
    const first = await listening();
    const sent = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => sendGithubEvent(100 + n)));
    // mid-stream: the local server has some, not all
    await eventually(async () => local.received.some((r) => sent.includes(String(r.headers['x-relay-event-id']))), 30_000, 'the first forward at the local server');
    await first.kill('SIGKILL');
    // sent while nobody listens: retried on the schedule until a session takes them
    const during = [await sendGithubEvent(201), await sendGithubEvent(202)];
    local.delayMs = 0;
    const second = await listening();
    const all = [...sent, ...during];
    await eventually(async () => all.every((id) => local.eventIds().has(id)), 120_000, 'every event at the local server');
    for (const id of all) {
      const row = await completed(id);
      const attempts = row.deliveries[0].attempts as Array<{ state: string; status_code: number | null; error: string | null }>;
      expect(attempts.at(-1)).toMatchObject({ state: 'delivered', status_code: 200 });
    }
    // a forward the killed CLI held was answered as gone by the server and attempted again
    const retried = await Promise.all(sent.map(async (id) => (await stack.api(`/v1/activity/${id}`)).body.deliveries[0].attempts as Array<{ error: string | null }>));
    expect(retried.some((attempts) => attempts.length > 1 && /session ended before the local server answered/.test(attempts[0]!.error ?? ''))).toBe(true);
    // the events nobody listened for were first recorded as waiting for a session
    const waited = await stack.api(`/v1/activity/${during[0]}`);
    expect(JSON.stringify(waited.body.deliveries[0].attempts[0])).toMatch(/no relay listen session|session ended/);
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
