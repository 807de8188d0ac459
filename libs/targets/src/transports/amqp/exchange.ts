import amqp from 'amqplib';
import type { ChannelModel, ConfirmChannel } from 'amqplib';
import { addressOf } from '../address';
import type { AddressPolicy } from '../../ssrf';
import { createAddressPolicy } from '../../ssrf';
import { ClientPool, ownedKey } from '../pool';
import type { PooledLink, PooledLinkOptions, PoolOwner } from '../pool';

/** One message to publish, persistent, with publisher confirms. */
export interface AmqpMessage {
  exchange: string;
  routingKey: string;
  body: Buffer;
  /** Relay's delivery id: the AMQP `message_id` */
  messageId: string;
  contentType?: string;
  /** seconds since the epoch (AMQP `timestamp`) */
  timestamp: number;
  headers: Record<string, string>;
}

/**
 * What a publish came to: confirmed (basic.ack), returned (mandatory, no queue bound), or an
 * error: the broker's reply name (`ACCESS_REFUSED`, `NOT_FOUND`), `NACK`, or the socket's code.
 */
export type PublishOutcome = { confirmed: true } | { returned: true } | { error: { code: string; message: string } };

/** The outputs deliverer's route to the brokers of RabbitMQ exchange targets. */
export interface AmqpLink extends PooledLink {
  publish(owner: PoolOwner, url: string, message: AmqpMessage): Promise<PublishOutcome>;
}

interface Held {
  connection: ChannelModel;
  channel: ConfirmChannel;
  open: boolean;
  /** why the channel or connection closed, when the broker said */
  closedBy?: unknown;
  /** message ids the broker returned as unroutable; a return precedes its ack */
  returned: Set<string>;
}

/**
 * `… 403 (ACCESS-REFUSED) with message …` → `ACCESS_REFUSED`; a connection closed in answer to
 * connection.open → `NOT_ALLOWED` (530, the only refusal there: the virtual host); a socket's
 * code; else `EAMQP`.
 */
export function amqpErrorCode(err: unknown): string {
  const e = err as { code?: unknown; message?: string };
  const reply = /\b\d{3} \(([A-Z-]+)\)/.exec(String(e?.message ?? ''))?.[1];
  if (reply) return reply.replace(/-/g, '_');
  if (String(e?.message ?? '').includes('Expected ConnectionOpenOk; got <ConnectionClose')) return 'NOT_ALLOWED';
  if (typeof e?.code === 'string') return e.code;
  if (/timed? ?out/i.test(String(e?.message ?? ''))) return 'ETIMEDOUT';
  if (/closed/i.test(String(e?.message ?? ''))) return 'ECONNCLOSED';
  return 'EAMQP';
}

async function open(rawUrl: string, policy: AddressPolicy, opts: PooledLinkOptions): Promise<Held> {
  const url = new URL(rawUrl);
  const address = await addressOf(url.hostname, policy);
  const tls = url.protocol === 'amqps:';
  const connection = await amqp.connect(
    {
      protocol: tls ? 'amqps' : 'amqp',
      hostname: address,
      port: url.port === '' ? (tls ? 5671 : 5672) : Number(url.port),
      username: decodeURIComponent(url.username) || 'guest',
      password: decodeURIComponent(url.password) || 'guest',
      vhost: url.pathname.length > 1 ? decodeURIComponent(url.pathname.slice(1)) : '/',
      heartbeat: 30,
    },
    // certificates are verified against the URL's host name, not the address dialled
    { timeout: opts.connectTimeoutMs, ...(tls ? { servername: url.hostname, rejectUnauthorized: true } : {}) },
  );
  const held: Held = { connection, channel: undefined as unknown as ConfirmChannel, open: true, returned: new Set() };
  const closed = (err?: unknown) => {
    held.open = false;
    held.closedBy ??= err;
  };
  connection.on('error', closed);
  connection.on('close', closed);
  try {
    held.channel = await connection.createConfirmChannel();
  } catch (err) {
    await connection.close().catch(() => undefined);
    throw err;
  }
  held.channel.on('error', closed);
  held.channel.on('close', closed);
  held.channel.on('return', (msg: { properties: { messageId?: string } }) => {
    if (msg.properties.messageId) held.returned.add(msg.properties.messageId);
  });
  return held;
}

function publishOn(held: Held, m: AmqpMessage, timeoutMs: number): Promise<PublishOutcome> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      held.open = false;
      resolve({ error: { code: 'ETIMEDOUT', message: `no confirm within ${timeoutMs} ms` } });
    }, timeoutMs);
    const done = (outcome: PublishOutcome): void => {
      clearTimeout(timer);
      resolve(outcome);
    };
    try {
      held.channel.publish(
        m.exchange,
        m.routingKey,
        m.body,
        {
          persistent: true,
          mandatory: true,
          messageId: m.messageId,
          timestamp: m.timestamp,
          headers: m.headers,
          ...(m.contentType ? { contentType: m.contentType } : {}),
        },
        (err: unknown) => {
          if (held.returned.delete(m.messageId)) return done({ returned: true });
          if (!err) return done({ confirmed: true });
          // a closed channel fails its pending confirms; the broker's close says why
          const why = held.closedBy ?? err;
          const code =
            held.closedBy || String((err as Error)?.message ?? '').includes('closed') ? amqpErrorCode(why) : 'NACK';
          done({ error: { code, message: String((why as Error)?.message ?? why) } });
        },
      );
    } catch (err) {
      // publishing on a channel that has closed throws at once
      done({ error: { code: amqpErrorCode(held.closedBy ?? err), message: String((err as Error)?.message ?? err) } });
    }
  });
}

/** Pooled connections (one confirm channel each) to the brokers of RabbitMQ exchange targets, keyed by a digest of the URL. */
export function createAmqpLink(opts: PooledLinkOptions): AmqpLink {
  const policy = createAddressPolicy({ allowCidrs: opts.allowCidrs });
  const pool = new ClientPool<Held>({
    healthy: (h) => h.open,
    close: (h) => void h.connection.close().catch(() => undefined),
    maxClients: opts.maxClients,
    idleMs: opts.idleMs,
  });
  return pool.link<AmqpLink>({
    async publish(owner, url, message) {
      try {
        // a channel the broker closed is unhealthy: the pool closes it after the attempt
        return await pool.use(
          ownedKey(owner, url),
          () => open(url, policy, opts),
          owner,
          (held) => publishOn(held, message, opts.commandTimeoutMs),
        );
      } catch (err) {
        return { error: { code: amqpErrorCode(err), message: String((err as Error)?.message ?? err) } };
      }
    },
  });
}
