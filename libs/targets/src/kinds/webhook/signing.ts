import { createHmac } from 'node:crypto';

const PREFIX = 'whsec_';

/** The key bytes of a `whsec_<base64>` secret, or null when it is not one (Standard Webhooks: 24–64 bytes). */
export function signingKey(secret: string): Buffer | null {
  if (!secret.startsWith(PREFIX)) return null;
  const b64 = secret.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return null;
  const key = Buffer.from(b64, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : null;
}

/**
 * Standard Webhooks signature headers (standardwebhooks.com): HMAC-SHA256 over
 * `${webhook-id}.${webhook-timestamp}.${body}` with the secret's key bytes, sent as `v1,<base64>`.
 * The id is the delivery id, stable across attempts, which is what the spec's receivers dedupe on.
 */
export function standardWebhookHeaders(secret: string, msgId: string, now: Date, body: Buffer): Record<string, string> {
  const key = signingKey(secret);
  if (!key) throw new Error('signing secret is not a whsec_ secret');
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = createHmac('sha256', key).update(`${msgId}.${timestamp}.`).update(body).digest('base64');
  return { 'webhook-id': msgId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
