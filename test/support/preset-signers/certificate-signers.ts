import { createSign } from 'node:crypto';

/**
 * Signers for the certificate-signed presets, written from the providers' documentation and not
 * from Relay's verifier: SNS's message signature (docs.aws.amazon.com/sns "Verifying the
 * signatures of Amazon SNS messages") and PayPal's transmission signature
 * (developer.paypal.com "Webhooks": transmission_id|transmission_time|webhook_id|crc32).
 */

export interface SnsFields {
  Type: 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  Subject?: string;
  Token?: string;
  SubscribeURL?: string;
}

/** The JSON body SNS POSTs, signed with `key` (PEM) as SignatureVersion `version`. */
export function snsMessage(fields: SnsFields, opts: { key: string; certUrl: string; version?: '1' | '2' }): string {
  const version = opts.version ?? '2';
  // AWS lists the signed names per type, sorted by byte order; Subject only when present
  const names =
    fields.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  const record = fields as unknown as Record<string, string | undefined>;
  const toSign = names
    .filter((n) => record[n] !== undefined)
    .map((n) => `${n}\n${record[n]}\n`)
    .join('');
  const signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
    .update(toSign, 'utf8')
    .sign(opts.key, 'base64');
  return JSON.stringify(
    { ...fields, SignatureVersion: version, Signature: signature, SigningCertURL: opts.certUrl },
    null,
    2,
  );
}

/** CRC-32 (IEEE 802.3, reflected, as PHP's crc32 and zlib compute it), bit by bit. */
export function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** The headers PayPal sends with a webhook event, signed with `key` (PEM). */
export function paypalHeaders(
  body: Buffer,
  opts: { key: string; certUrl: string; webhookId: string; transmissionId: string; at: Date },
): Record<string, string> {
  const time = opts.at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const message = `${opts.transmissionId}|${time}|${opts.webhookId}|${crc32(body)}`;
  return {
    'paypal-transmission-id': opts.transmissionId,
    'paypal-transmission-time': time,
    'paypal-transmission-sig': createSign('RSA-SHA256').update(message, 'utf8').sign(opts.key, 'base64'),
    'paypal-cert-url': opts.certUrl,
    'paypal-auth-algo': 'SHA256withRSA',
  };
}
