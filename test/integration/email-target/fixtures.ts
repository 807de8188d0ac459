import { DELIVERY_V1 } from '@relay/contracts';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { createSmtpTransport, SMTP_DEFAULTS } from '../../../libs/targets/src/transports/smtp';
import type { SmtpRelayConfig, SmtpTransport } from '../../../libs/targets/src/transports/smtp';
import type { TestSmtpServer } from '../../support/smtp-server';

export const SMTP_USER = 'relay-it';
export const SMTP_PASS = 'it-secret-Pa55word';
export const FROM = 'relay@relay.example';

let seq = 0;

/** A delivery as the gateway publishes it: `body` is the exact bytes a webhook target would get. */
export function delivery(
  body: string,
  contentType: string | null,
  attempt = 1,
  deliveryId?: string,
): DeliveryMessageV1 {
  seq += 1;
  return {
    type: DELIVERY_V1,
    event_id: `evt_email${seq}`,
    delivery_id: deliveryId ?? `dlv_email${seq}_tgmail`,
    attempt,
    account_id: 'acc-email',
    endpoint_id: 'ep-email',
    target_id: 'tg_mail',
    target_kind: 'email',
    received_at: '2026-11-26T12:00:00.000Z',
    request: { method: 'POST', source_ip: '203.0.113.9', headers: {}, query: '' },
    payload: { content_type: contentType, body_base64: Buffer.from(body).toString('base64') },
  };
}

/** A transport to the test server as an operator would configure it, with short timeouts. */
export function transportTo(server: TestSmtpServer, over: Partial<SmtpRelayConfig> = {}): SmtpTransport {
  return createSmtpTransport({
    ...SMTP_DEFAULTS,
    host: '127.0.0.1',
    port: server.port,
    security: 'starttls',
    username: SMTP_USER,
    password: SMTP_PASS,
    from: FROM,
    ca: server.ca,
    connectionTimeoutMs: 2_000,
    greetingTimeoutMs: 2_000,
    socketTimeoutMs: 2_000,
    maxConnections: 2,
    ...over,
  });
}
