import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { must } from '@relay/client';
import { createNatsLink } from '@relay/targets';
import { jetstreamManager } from '@nats-io/jetstream';
import type { JetStreamManager, StoredMsg } from '@nats-io/jetstream';
import {
  createAccount,
  createOperator,
  createUser,
  encodeAccount,
  encodeOperator,
  encodeUser,
  fmtCreds,
} from '@nats-io/jwt';
import { connect, credsAuthenticator, nkeys } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import { activityRowWhen } from '../support/api-client';
import { eventually } from '../support/infra';
import { startPrivateNats } from '../support/private-servers';
import type { PrivateServer } from '../support/private-servers';
import {
  addQueueTarget,
  completedRows,
  flagOf,
  removeTarget,
  retryingWith,
  RIDES_OUT_AN_OUTAGE,
  sendJson,
} from '../support/queue-targets';
import { freePort, startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';
import { selfSigned } from '../support/rsa-keys';

/** the target whose pooled client the link calls use */
const OWNER = { endpointId: 'ep_owner', targetId: 'tg_owner' };

/*
 * NATS JetStream targets (docs/targets-queues.md "NATS JetStream"), every service its own process
 * on the worker's shared stack plus an outputs deliverer of this file's own, publishing to a
 * private nats-server with JetStream (started once for the file). Each test creates the stream
 * its target's subject falls in, as an operator would (Relay never declares one), and reads what
 * the stream stored; the last test stops the server and starts it again on the same store. The
 * server also takes TLS (optional for clients) with a certificate for `localhost` only, which the
 * outputs deliverer trusts (NODE_EXTRA_CA_CERTS).
 */

const PASSWORD = 'Relay-Pa55word';
const nkeyUser = nkeys.createUser();
const SEED = new TextDecoder().decode(nkeyUser.getSeed());
const TLS_DIR = mkdtempSync(path.join(tmpdir(), 'relay-nats-tls-'));
const pems = selfSigned([{ name: 'commonName', value: 'localhost' }], {
  algorithm: 'sha256',
  days: 1,
  extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
});
writeFileSync(path.join(TLS_DIR, 'cert.pem'), pems.cert);
writeFileSync(path.join(TLS_DIR, 'key.pem'), pems.private);
const SERVER_CONFIG = `tls { cert_file: "${path.join(TLS_DIR, 'cert.pem')}", key_file: "${path.join(TLS_DIR, 'key.pem')}" }
allow_non_tls: true
authorization {
  users = [
    { user: relay, password: "${PASSWORD}" }
    { user: limited, password: "${PASSWORD}", permissions: { publish: { deny: ["e2e.denied.>"] } } }
    { nkey: ${nkeyUser.getPublicKey()} }
  ]
}
`;
const asRelay = (url: string) => connect({ servers: url, user: 'relay', pass: PASSWORD, reconnect: false, tls: null });

let stack: Stack;
let outputs: RunningService;
let nats: PrivateServer & { close(): Promise<void> };
let nc: NatsConnection;
let jsm: JetStreamManager;
let endpointId: string;

beforeAll(async () => {
  [stack, nats] = await Promise.all([
    startStack('nats-jetstream'),
    startPrivateNats('nats-jetstream', SERVER_CONFIG, async (url) => {
      const c = await asRelay(url);
      try {
        // ready means JetStream answers, not an open port
        await (await jetstreamManager(c)).getAccountInfo();
      } finally {
        await c.close();
      }
    }),
  ]);
  outputs = await startService('outputs-deliverer', {
    ...stack.env,
    NODE_EXTRA_CA_CERTS: path.join(TLS_DIR, 'cert.pem'),
  });
  nc = await asRelay(nats.url);
  jsm = await jetstreamManager(nc);
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'to jetstream' } }))).id;
});

afterAll(async () => {
  await nc?.close().catch(() => undefined);
  await outputs?.stop();
  await nats?.close();
  await stack?.stop();
  rmSync(TLS_DIR, { recursive: true, force: true });
});

/** A stream of the test's own over `<prefix>.>`, and what it stores. */
async function streamFor(prefix: string) {
  const name = `E2E_${prefix.replace(/\W/g, '_')}`;
  await jsm.streams.add({ name, subjects: [`${prefix}.>`] });
  const stored = async (): Promise<StoredMsg[]> => {
    const { state } = await jsm.streams.info(name);
    const out: StoredMsg[] = [];
    for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
      // null: no message at that sequence (none is deleted here)
      const m = await jsm.streams.getMessage(name, { seq });
      if (m) out.push(m);
    }
    return out;
  };
  return {
    name,
    stored,
    waitFor: (n: number, timeoutMs = 30_000) =>
      eventually(
        async () => ((await stored()).length >= n ? stored() : undefined),
        timeoutMs,
        `${n} messages in ${name}`,
      ),
    remove: () => jsm.streams.delete(name).catch(() => undefined),
  };
}

const prefixOf = () => `e2e.${randomUUID().replace(/-/g, '')}`;
const header = (m: StoredMsg, name: string) => m.header.get(name);

describe('NATS JetStream target, end to end', () => {
  it('an event becomes one stream message: the body, the rendered subject, Nats-Msg-Id = delivery id, event and endpoint ids', async () => {
    const prefix = prefixOf();
    const stream = await streamFor(prefix);
    const targetId = await addQueueTarget(stack, endpointId, 'nats_jetstream', {
      servers: [nats.url],
      subject: `${prefix}.orders.{{type}}`,
      auth: { type: 'user_password', user: 'relay', password: PASSWORD },
    });
    try {
      await sendJson(stack, endpointId, { type: 'paid', order: { id: 42 } });
      const [m] = await stream.waitFor(1);
      expect(m!.subject).toBe(`${prefix}.orders.paid`);
      expect(m!.string()).toBe('{"type":"paid","order":{"id":42}}');
      expect(header(m!, 'Nats-Msg-Id')).toMatch(/^dlv_/);
      expect(header(m!, 'Relay-Event-Id')).toMatch(/^evt_/);
      expect(header(m!, 'Relay-Endpoint-Id')).toBe(endpointId);
      expect(header(m!, 'Content-Type')).toBe('application/json');
      const row = await activityRowWhen(
        stack.client,
        header(m!, 'Relay-Event-Id'),
        (r) => r.status === 'completed',
        'delivered',
      );
      expect(row.deliveries).toEqual([
        expect.objectContaining({ delivery_id: header(m!, 'Nats-Msg-Id'), target_id: targetId }),
      ]);
      expect(row.deliveries[0]!.attempts.map((a) => [a.state, a.status_code])).toEqual([['delivered', null]]);
      const shown = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
          params: { path: { endpointId, targetId } },
        }),
      );
      expect(shown.config).toMatchObject({ auth: { type: 'user_password', user: 'relay', password: '[redacted]' } });
      expect(JSON.stringify(shown)).not.toContain(PASSWORD);
    } finally {
      await removeTarget(stack, endpointId, targetId);
      await stream.remove();
    }
  });

  it('an NKey seed logs in, at the first of the servers that answers; the seed is shown as set and never returned', async () => {
    const prefix = prefixOf();
    const stream = await streamFor(prefix);
    const targetId = await addQueueTarget(stack, endpointId, 'nats_jetstream', {
      // nothing listens on the first: the second takes the delivery
      servers: [`nats://127.0.0.1:${await freePort()}`, nats.url],
      subject: `${prefix}.nkey`,
      auth: { type: 'nkey', seed: SEED },
    });
    try {
      await sendJson(stack, endpointId, { signed: true });
      const [m] = await stream.waitFor(1);
      expect(m!.json()).toEqual({ signed: true });
      const list = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }),
      );
      expect(JSON.stringify(list)).not.toContain(SEED);
      expect(JSON.stringify(list)).toContain('"seed":"[redacted]"');
    } finally {
      await removeTarget(stack, endpointId, targetId);
      await stream.remove();
    }
  });

  it('tls:// verifies the certificate against the URL’s host name while dialling the address checked; another name is refused', async () => {
    const prefix = prefixOf();
    const stream = await streamFor(prefix);
    const { port } = new URL(nats.url);
    const auth = { type: 'user_password', user: 'relay', password: PASSWORD };
    const named = await addQueueTarget(stack, endpointId, 'nats_jetstream', {
      servers: [`tls://localhost:${port}`],
      subject: `${prefix}.tls`,
      auth,
    });
    const ep = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'tls by address' } }))).id;
    const byAddress = await addQueueTarget(stack, ep, 'nats_jetstream', {
      servers: [`tls://127.0.0.1:${port}`],
      subject: `${prefix}.tls`,
      auth,
    });
    try {
      await sendJson(stack, endpointId, { over: 'tls' });
      await sendJson(stack, ep, { over: 'tls by address' });
      const [m] = await stream.waitFor(1);
      expect(m!.json()).toEqual({ over: 'tls' });
      // the certificate names localhost only
      expect((await flagOf(stack, ep, byAddress)).reason).toBe(
        'NATS server not dialled (ERR_TLS_CERT_ALTNAME_INVALID)',
      );
      expect(await stream.stored()).toHaveLength(1);
    } finally {
      await removeTarget(stack, endpointId, named);
      await removeTarget(stack, ep, byAddress);
      await stream.remove();
    }
  });

  it.each([
    [
      'a wrong password',
      'e2e.wrongpass',
      { type: 'user_password', user: 'relay', password: 'wrong-Pa55word' },
      'refused the credentials (Authorization Violation)',
    ],
    [
      'a subject no stream captures',
      'e2e.nostream',
      { type: 'user_password', user: 'relay', password: PASSWORD },
      'no stream captures this subject',
    ],
    [
      'a subject the user may not publish to',
      'e2e.denied',
      { type: 'user_password', user: 'limited', password: PASSWORD },
      'Permissions Violation',
    ],
  ])('%s flags the target with the reason', async (_what, base, auth, reason) => {
    const prefix = `${base}.${randomUUID().replace(/-/g, '')}`;
    // a stream for every subject but the one about streams: the flag is about what the case names
    const stream = base === 'e2e.nostream' ? null : await streamFor(prefix);
    const ep = (await must(stack.client.POST('/v1/endpoints', { body: { name: base } }))).id;
    const targetId = await addQueueTarget(stack, ep, 'nats_jetstream', {
      servers: [nats.url],
      subject: `${prefix}.x`,
      auth,
    });
    try {
      await sendJson(stack, ep, { n: 1 });
      expect((await flagOf(stack, ep, targetId)).reason).toContain(reason);
      if (stream) expect(await stream.stored()).toHaveLength(0);
    } finally {
      await removeTarget(stack, ep, targetId);
      await stream?.remove();
    }
  });

  it('a second publish of one delivery id within the duplicate window is acknowledged as a duplicate and not stored again', async () => {
    const prefix = prefixOf();
    const stream = await streamFor(prefix);
    const link = createNatsLink({
      allowCidrs: ['127.0.0.1/32'],
      connectTimeoutMs: 5000,
      commandTimeoutMs: 5000,
      maxClients: 4,
      idleMs: 60_000,
    });
    const target = { servers: [nats.url], auth: { type: 'user_password' as const, user: 'relay', password: PASSWORD } };
    const message = { subject: `${prefix}.once`, body: Buffer.from('{}'), msgId: `dlv_${randomUUID()}`, headers: {} };
    try {
      expect(await link.publish(OWNER, target, message)).toEqual({
        ack: { stream: stream.name, seq: 1, duplicate: false },
      });
      expect(await link.publish(OWNER, target, message)).toEqual({
        ack: { stream: stream.name, seq: 1, duplicate: true },
      });
      expect(await stream.stored()).toHaveLength(1);
    } finally {
      link.close();
      await stream.remove();
    }
  });
});

describe('a server in operator mode (users are JWTs signed by their account)', () => {
  it('a .creds file logs in; it is sealed, shown as set and never returned', async () => {
    const operator = createOperator();
    const account = createAccount();
    // JetStream in operator mode needs the server's system account
    const system = createAccount();
    const user = createUser();
    const unlimited = {
      subs: -1,
      data: -1,
      payload: -1,
      imports: -1,
      exports: -1,
      wildcards: true,
      conn: -1,
      leaf: -1,
    };
    const accountJwt = await encodeAccount(
      'e2e',
      account,
      { limits: { ...unlimited, mem_storage: -1, disk_storage: -1, streams: -1, consumer: -1 } },
      { signer: operator },
    );
    const creds = new TextDecoder().decode(fmtCreds(await encodeUser('relay', user, account), user));
    const asUser = (url: string) =>
      connect({
        servers: url,
        authenticator: credsAuthenticator(new TextEncoder().encode(creds)),
        reconnect: false,
        tls: null,
      });
    const server = await startPrivateNats(
      'nats-operator',
      [
        `operator: ${await encodeOperator('e2e', operator)}`,
        `system_account: ${system.getPublicKey()}`,
        'resolver: MEMORY',
        `resolver_preload: { ${account.getPublicKey()}: ${accountJwt}, ${system.getPublicKey()}: ${await encodeAccount('SYS', system, {}, { signer: operator })} }`,
      ].join('\n'),
      async (url) => {
        const c = await asUser(url);
        await (await jetstreamManager(c)).getAccountInfo().finally(() => c.close());
      },
    );
    const admin = await asUser(server.url);
    const ep = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'operator mode' } }))).id;
    let targetId: string | undefined;
    try {
      const manager = await jetstreamManager(admin);
      await manager.streams.add({ name: 'OPERATOR', subjects: ['operator.>'] });
      targetId = await addQueueTarget(stack, ep, 'nats_jetstream', {
        servers: [server.url],
        subject: 'operator.{{type}}',
        auth: { type: 'creds', creds },
      });
      await sendJson(stack, ep, { type: 'signed' });
      await eventually(
        async () => ((await manager.streams.info('OPERATOR')).state.messages === 1 ? true : undefined),
        30_000,
        'the message',
      );
      expect((await manager.streams.getMessage('OPERATOR', { seq: 1 }))!.json()).toEqual({ type: 'signed' });
      const shown = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId: ep } } }),
      );
      expect(shown.data[0]!.config).toMatchObject({ auth: { type: 'creds', creds: '[redacted]' } });
      const seed = new TextDecoder().decode(user.getSeed());
      expect(JSON.stringify(shown)).not.toContain(seed);
    } finally {
      if (targetId) await removeTarget(stack, ep, targetId);
      await admin.close();
      await server.close();
    }
  });
});

describe('the destination nats-server stopped mid-run and restarted on the same store', () => {
  it('deliveries sent while it is down are retried and arrive once it is back: none lost, none stored twice', async () => {
    const prefix = prefixOf();
    const stream = await streamFor(prefix);
    const outage = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'outage' } }))).id;
    const targetId = await addQueueTarget(
      stack,
      outage,
      'nats_jetstream',
      {
        servers: [nats.url],
        subject: `${prefix}.{{phase}}`,
        auth: { type: 'user_password', user: 'relay', password: PASSWORD },
      },
      RIDES_OUT_AN_OUTAGE,
    );
    try {
      for (let i = 0; i < 3; i++) await sendJson(stack, outage, { phase: 'before', i });
      await stream.waitFor(3);

      await nc.close();
      await nats.stop('SIGTERM');
      for (let i = 0; i < 3; i++) await sendJson(stack, outage, { phase: 'during', i });
      await retryingWith(stack, outage, 'NATS server unavailable (ECONNREFUSED)', 3);

      await nats.start(30_000);
      nc = await asRelay(nats.url);
      jsm = await jetstreamManager(nc);
      const all = await stream.waitFor(6, 60_000);
      expect(all.map((m) => m.json())).toEqual(
        expect.arrayContaining([
          ...[0, 1, 2].map((i) => ({ phase: 'before', i })),
          ...[0, 1, 2].map((i) => ({ phase: 'during', i })),
        ]),
      );
      expect(new Set(all.map((m) => header(m, 'Nats-Msg-Id'))).size).toBe(6);
      // every held delivery completed, and the stream holds each once
      await completedRows(stack, outage, 6);
      expect(await stream.stored()).toHaveLength(6);
    } finally {
      await removeTarget(stack, outage, targetId);
      await stream.remove();
    }
  });
});
