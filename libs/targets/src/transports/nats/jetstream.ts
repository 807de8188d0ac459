import net from 'node:net';
import { checkServerIdentity } from 'node:tls';
import type { PeerCertificate } from 'node:tls';
import type * as NatsJetStream from '@nats-io/jetstream';
import type { JetStreamClient } from '@nats-io/jetstream';
import type * as NatsTransport from '@nats-io/transport-node';
import type { NatsConnection, NodeConnectionOptions } from '@nats-io/transport-node';
import { addressOf } from '../address';
import { createAddressPolicy } from '../../ssrf';
import type { AddressPolicy } from '../../ssrf';
import { onFirstUse } from '../on-first-use';
import { ClientPool, ownedKey } from '../pool';
import type { PooledLink, PooledLinkOptions, PoolOwner } from '../pool';

/** the NATS clients, loaded by the first link (on-first-use.ts) */
const natsTransport = onFirstUse(() => require('@nats-io/transport-node') as typeof NatsTransport);
const natsJetStream = onFirstUse(() => require('@nats-io/jetstream') as typeof NatsJetStream);
/** How Relay authenticates to the servers (plaintext, held only in memory). */
export type NatsAuth =
  | { type: 'none' }
  | { type: 'user_password'; user: string; password: string }
  | { type: 'token'; token: string }
  | { type: 'nkey'; seed: string }
  /** the content of a `.creds` file: a user JWT and its seed, for servers in operator mode */
  | { type: 'creds'; creds: string };

/** The servers of one target and how to log in: one pooled connection each. */
export interface NatsServers {
  /** `nats://` or `tls://` URLs, tried in order; all of one scheme */
  servers: readonly string[];
  auth: NatsAuth;
}

/** One message to publish with JetStream: `Nats-Msg-Id` is the delivery id. */
export interface NatsMessage {
  subject: string;
  body: Buffer;
  /** Relay's delivery id: the stream's duplicate window drops a second publish of it */
  msgId: string;
  headers: Record<string, string>;
}

/**
 * What a publish came to: the stream's PubAck (`duplicate` when the stream already had the
 * msg id), or an error: `NO_RESPONDERS`, `JS_<err_code>` (a JetStream API error, with its
 * HTTP-like `status`), `AUTHORIZATION_VIOLATION`, `PERMISSIONS_VIOLATION`, a timeout, a
 * closed connection or the socket's code.
 */
export type NatsPublishOutcome =
  | { ack: { stream: string; seq: number; duplicate: boolean } }
  | { error: { code: string; message: string; status?: number } };

/** The outputs deliverer's route to the NATS servers of JetStream targets. */
export interface NatsLink extends PooledLink {
  publish(owner: PoolOwner, target: NatsServers, message: NatsMessage): Promise<NatsPublishOutcome>;
}

interface Held {
  nc: NatsConnection;
  js: JetStreamClient;
}

/** An error's code; nats.js wraps the cause (a refused socket, a permission violation) in its own. */
export function natsErrorCode(err: unknown): { code: string; status?: number } {
  const { JetStreamApiError } = natsJetStream();
  const { errors } = natsTransport();
  for (let e = err as { cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as never, depth++) {
    if (e instanceof JetStreamApiError) return { code: `JS_${e.code}`, status: e.status };
    if (e instanceof errors.AuthorizationError) return { code: 'AUTHORIZATION_VIOLATION' };
    if (e instanceof errors.UserAuthenticationExpiredError) return { code: 'AUTHENTICATION_EXPIRED' };
    if (e instanceof errors.PermissionViolationError) return { code: 'PERMISSIONS_VIOLATION' };
    if (e instanceof errors.NoRespondersError || (e instanceof errors.RequestError && e.isNoResponders()))
      return { code: 'NO_RESPONDERS' };
    if (e instanceof errors.TimeoutError) return { code: 'ETIMEDOUT' };
    if (e instanceof errors.ClosedConnectionError || e instanceof errors.DrainingConnectionError)
      return { code: 'ECONNCLOSED' };
    if (e instanceof errors.InvalidArgumentError && /max_payload/.test(e.message)) return { code: 'MAX_PAYLOAD' };
    if (e instanceof errors.ConnectionError && /does not support 'tls'/.test(e.message))
      return { code: 'TLS_UNAVAILABLE' };
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return { code };
  }
  return { code: 'ENATS' };
}

type NodeTlsOptions = NonNullable<NodeConnectionOptions['tls']>;

/**
 * TLS verified against the URL's host name, not the address dialled. nats.js hands these
 * options to Node's tls.connect as they are (its type lists only its own); the identity check is
 * explicit because nats.js passes no server name for an IP address, and Node then checks the
 * certificate against `localhost`.
 */
const verifiedAgainst = (hostname: string): NodeTlsOptions => {
  const host = hostname.replace(/^\[|\]$/g, '');
  return {
    // SNI takes names only (RFC 6066)
    ...(net.isIP(host) === 0 ? { servername: host } : {}),
    rejectUnauthorized: true,
    checkServerIdentity: (_: string, cert: PeerCertificate) => checkServerIdentity(host, cert),
  } as NodeTlsOptions;
};

const messageOf = (err: unknown): string => String((err as Error)?.message ?? err);

function authOptions(auth: NatsAuth): Partial<NodeConnectionOptions> {
  switch (auth.type) {
    case 'user_password':
      return { user: auth.user, pass: auth.password };
    case 'token':
      return { token: auth.token };
    case 'nkey':
      return { authenticator: natsTransport().nkeyAuthenticator(new TextEncoder().encode(auth.seed)) };
    case 'creds':
      return { authenticator: natsTransport().credsAuthenticator(new TextEncoder().encode(auth.creds)) };
    default:
      return {};
  }
}

/**
 * One connection to the first server that answers, tried in order. Each server's host is
 * checked by the SSRF policy and dialled at the checked address (TLS verifies the URL's host
 * name); the client neither reconnects nor dials the servers a cluster announces, so it reaches
 * no address that was not checked, and a lost connection is the next attempt's to reopen.
 */
async function open(target: NatsServers, policy: AddressPolicy, opts: PooledLinkOptions): Promise<Held> {
  let failure: unknown;
  for (const raw of target.servers) {
    const url = new URL(raw);
    try {
      const address = await addressOf(url.hostname, policy);
      const nc = await natsTransport().connect({
        servers: `${net.isIPv6(address) ? `[${address}]` : address}:${url.port === '' ? 4222 : url.port}`,
        ...authOptions(target.auth),
        tls: url.protocol === 'tls:' ? verifiedAgainst(url.hostname) : null,
        name: 'relay-deliverer',
        timeout: opts.connectTimeoutMs,
        reconnect: false,
        ignoreClusterUpdates: true,
      });
      return { nc, js: natsJetStream().jetstream(nc, { timeout: opts.commandTimeoutMs }) };
    } catch (err) {
      // a refusal of the credentials or the address is the answer; another server is not asked
      const { code } = natsErrorCode(err);
      if (code === 'AUTHORIZATION_VIOLATION' || code === 'SSRF_BLOCKED') throw err;
      failure = err;
    }
  }
  throw failure;
}

/**
 * Pooled connections to the NATS servers of JetStream targets, keyed by a digest of the
 * servers and credentials: a changed target gets a connection of its own, and the pool holds
 * no secret.
 */
export function createNatsLink(opts: PooledLinkOptions): NatsLink {
  const policy = createAddressPolicy({ allowCidrs: opts.allowCidrs });
  const pool = new ClientPool<Held>({
    healthy: (h) => !h.nc.isClosed() && !h.nc.isDraining(),
    close: (h) => void h.nc.close().catch(() => undefined),
    maxClients: opts.maxClients,
    idleMs: opts.idleMs,
  });
  return pool.link<NatsLink>({
    async publish(owner, target, message) {
      const h = natsTransport().headers();
      for (const [name, value] of Object.entries(message.headers)) h.set(name, value);
      try {
        const ack = await pool.use(
          ownedKey(owner, JSON.stringify(target)),
          () => open(target, policy, opts),
          owner,
          (held) =>
            held.js.publish(message.subject, message.body, {
              msgID: message.msgId,
              headers: h,
              timeout: opts.commandTimeoutMs,
            }),
          // a publish not acknowledged in time leaves the connection in doubt
          (err) => natsErrorCode(err).code === 'ETIMEDOUT',
        );
        return { ack: { stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate } };
      } catch (err) {
        return { error: { ...natsErrorCode(err), message: messageOf(err) } };
      }
    },
  });
}
