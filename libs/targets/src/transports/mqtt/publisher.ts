import { randomBytes } from 'node:crypto';
import type * as Mqtt from 'mqtt';
import type { IClientPublishOptions, MqttClient } from 'mqtt';
import { addressOf } from '../address';
import type { AddressPolicy } from '../../ssrf';
import { createAddressPolicy } from '../../ssrf';
import { onFirstUse } from '../on-first-use';
import { ClientPool, ownedKey } from '../pool';
import type { PooledLink, PooledLinkOptions, PoolOwner } from '../pool';

const mqtt = onFirstUse(() => require('mqtt') as typeof Mqtt);

/** 4 = MQTT 3.1.1, 5 = MQTT 5.0 (the protocol level byte of CONNECT). */
export type MqttProtocolVersion = 4 | 5;

/** Where to publish: the broker URL (with user and password) and the protocol spoken to it. */
export interface MqttBroker {
  url: string;
  protocolVersion: MqttProtocolVersion;
}

/** One QoS 1 publish, retain off. */
export interface MqttMessage {
  topic: string;
  body: Buffer;
  /** MQTT 5 only: user properties and content type (3.1.1 has no properties: the body alone) */
  userProperties: Record<string, string>;
  contentType?: string;
}

/**
 * What a publish came to: acknowledged (PUBACK), or an error in the stage it happened: a CONNACK
 * refusal or a PUBACK reason code (`reasonCode`), or a socket's code (`ECONNREFUSED`, `ETIMEDOUT`).
 */
export type MqttOutcome =
  { acked: true } | { error: { stage: 'connect' | 'publish'; code: string; reasonCode?: number; message: string } };

/** The outputs deliverer's route to the brokers of MQTT targets. */
export interface MqttLink extends PooledLink {
  publish(owner: PoolOwner, broker: MqttBroker, message: MqttMessage): Promise<MqttOutcome>;
}

interface Held {
  client: MqttClient;
  open: boolean;
  /** the reason code of the broker's DISCONNECT (MQTT 5), when it closed the connection with one */
  disconnectReason?: number;
}

type ErrorOutcome = Extract<MqttOutcome, { error: unknown }>;

/** MQTT.js reports CONNACK and PUBACK refusals as an error with a numeric `code`; sockets with a string one. */
function errorOutcome(stage: 'connect' | 'publish', err: unknown): ErrorOutcome {
  const e = err as { code?: unknown; message?: string };
  const message = String(e?.message ?? err);
  if (typeof e?.code === 'number') return { error: { stage, code: `RC_${e.code}`, reasonCode: e.code, message } };
  if (typeof e?.code === 'string') return { error: { stage, code: e.code, message } };
  if (/timeout/i.test(message)) return { error: { stage, code: 'ETIMEDOUT', message } };
  return { error: { stage, code: 'ECONNCLOSED', message } };
}

async function open(broker: MqttBroker, policy: AddressPolicy, opts: PooledLinkOptions): Promise<Held> {
  const url = new URL(broker.url);
  const address = await addressOf(url.hostname, policy);
  const tls = url.protocol === 'mqtts:';
  const client = mqtt().connect({
    protocol: tls ? 'mqtts' : 'mqtt',
    host: address,
    port: url.port === '' ? (tls ? 8883 : 1883) : Number(url.port),
    ...(url.username !== '' ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password !== '' ? { password: decodeURIComponent(url.password) } : {}),
    // certificates are verified against the URL's host name, not the address dialled
    ...(tls ? { servername: url.hostname, rejectUnauthorized: true } : {}),
    protocolVersion: broker.protocolVersion,
    // a publisher keeps no session: an unacknowledged publish is Relay's to retry, not the client's
    clean: true,
    ...(broker.protocolVersion === 5 ? { properties: { sessionExpiryInterval: 0 } } : {}),
    // one client id per connection: a broker disconnects an older client that reuses an id
    clientId: `relay-${randomBytes(9).toString('base64url')}`,
    connectTimeout: opts.connectTimeoutMs,
    keepalive: 30,
    // no reconnecting inside the client: the pool opens a fresh one for the next attempt
    reconnectPeriod: 0,
  });
  const held: Held = { client, open: false };
  // for the client's whole life: an error, a close or the broker's DISCONNECT makes it unusable
  // and the pool replaces it (and an 'error' nobody listens to would throw in the deliverer)
  client.on('error', () => (held.open = false));
  client.on('close', () => (held.open = false));
  client.on('disconnect', (packet) => {
    held.open = false;
    held.disconnectReason = packet.reasonCode;
  });
  return new Promise<Held>((resolve, reject) => {
    const settled = (): void => {
      client.removeListener('connect', connected);
      client.removeListener('error', failed);
      client.removeListener('close', closedEarly);
    };
    const failed = (err: unknown): void => {
      settled();
      client.end(true);
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    const closedEarly = (): void =>
      failed(Object.assign(new Error('connection closed before CONNACK'), { code: 'ECONNCLOSED' }));
    const connected = (): void => {
      settled();
      held.open = true;
      resolve(held);
    };
    client.on('connect', connected);
    client.on('error', failed);
    client.on('close', closedEarly);
  });
}

function closedOutcome(held: Held): ErrorOutcome {
  const rc = held.disconnectReason;
  if (rc === undefined || rc < 0x80)
    return { error: { stage: 'publish', code: 'ECONNCLOSED', message: 'connection closed before PUBACK' } };
  return { error: { stage: 'publish', code: `RC_${rc}`, reasonCode: rc, message: `the broker disconnected (${rc})` } };
}

function publishOn(held: Held, m: MqttMessage, version: MqttProtocolVersion, timeoutMs: number): Promise<MqttOutcome> {
  const options: IClientPublishOptions = {
    qos: 1,
    retain: false,
    ...(version === 5
      ? { properties: { userProperties: m.userProperties, ...(m.contentType ? { contentType: m.contentType } : {}) } }
      : {}),
  };
  return new Promise((resolve) => {
    const done = (outcome: MqttOutcome): void => {
      clearTimeout(timer);
      held.client.removeListener('close', closed);
      resolve(outcome);
    };
    // a connection lost before the PUBACK leaves the publish in doubt: a retry publishes again,
    // unless the broker's DISCONNECT said why it refused (MQTT 5 §3.14.2.1)
    const closed = (): void => {
      held.open = false;
      done(closedOutcome(held));
    };
    const timer = setTimeout(() => {
      held.open = false;
      done({ error: { stage: 'publish', code: 'ETIMEDOUT', message: `no PUBACK within ${timeoutMs} ms` } });
    }, timeoutMs);
    held.client.once('close', closed);
    held.client.publish(m.topic, m.body, options, (err) => {
      // a PUBACK's reason code, or the failure of a publish cut off by the connection's end
      const code = (err as { code?: unknown } | undefined)?.code;
      if (!err) done({ acked: true });
      else done(typeof code === 'number' ? errorOutcome('publish', err) : closedOutcome(held));
    });
  });
}

/** Pooled connections to the brokers of MQTT targets, keyed by a digest of the URL and protocol version. */
export function createMqttLink(opts: PooledLinkOptions): MqttLink {
  const policy = createAddressPolicy({ allowCidrs: opts.allowCidrs });
  const pool = new ClientPool<Held>({
    healthy: (h) => h.open && h.client.connected,
    close: (h) => void h.client.end(true),
    maxClients: opts.maxClients,
    idleMs: opts.idleMs,
  });
  return pool.link<MqttLink>({
    async publish(owner, broker, message) {
      const key = ownedKey(owner, `${broker.protocolVersion} ${broker.url}`);
      try {
        // a connection the broker closed is unhealthy: the pool closes it after the attempt
        return await pool.use(
          key,
          () => open(broker, policy, opts),
          owner,
          (held) => publishOn(held, message, broker.protocolVersion, opts.commandTimeoutMs),
        );
      } catch (err) {
        return errorOutcome('connect', err);
      }
    },
  });
}
