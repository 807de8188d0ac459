import type { SignerCase } from '../signer';
import { b64, b64url, hex, mac, millis, secs } from '../sign';

/** Commerce, CMS, scheduling, forms and CRM: signers written from each provider's documentation. */
export const COMMERCE_SIGNERS = {
  woocommerce: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-WC-Webhook-Signature': b64('sha256', secret, body) },
    }),
  },
  aftership: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'aftership-hmac-sha256': b64('sha256', secret, body) },
    }),
  },
  easypost: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Hmac-Signature': `hmac-sha256-hex=${hex('sha256', secret.normalize('NFKD'), body)}` },
    }),
  },
  webflow: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: {
        'x-webflow-timestamp': millis(at),
        'x-webflow-signature': hex('sha256', secret, `${millis(at)}:`, body),
      },
    }),
  },
  storyblok: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'webhook-signature': hex('sha1', secret, body) } }),
  },
  sanity: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'sanity-webhook-signature': `t=${millis(at)},v1=${b64url('sha256', secret, `${millis(at)}.`, body)}` },
    }),
  },
  calendly: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'Calendly-Webhook-Signature': `t=${secs(at)},v1=${hex('sha256', secret, `${secs(at)}.`, body)}` },
    }),
  },
  cal_com: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Cal-Signature-256': hex('sha256', secret, body) } }),
  },
  acuity: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Acuity-Signature': b64('sha256', secret, body) } }),
  },
  typeform: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'Typeform-Signature': `sha256=${b64('sha256', secret, body)}` },
    }),
  },
  tally: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'Tally-Signature': b64('sha256', secret, body) } }),
  },
  docusign: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-DocuSign-Signature-1': b64('sha256', secret, body) },
    }),
  },
  // HubSpot v3: method + URI + body + timestamp (ms), base64.
  hubspot: {
    sign: ({ credentials: { secret }, body, at, url }) => ({
      headers: {
        'X-HubSpot-Request-Timestamp': millis(at),
        'X-HubSpot-Signature-v3': b64('sha256', secret, 'POST', url, body, millis(at)),
      },
    }),
  },
  // Close: the signature_key is hex; its decoded bytes are the key.
  close: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: {
        'close-sig-timestamp': secs(at),
        'close-sig-hash': mac('sha256', Buffer.from(secret, 'hex'), secs(at), body).toString('hex'),
      },
    }),
  },
  oncehub: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'Oncehub-Signature': `t=${secs(at)},s=${hex('sha256', secret, `${secs(at)}.`, body)}` },
    }),
  },
  mux: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'Mux-Signature': `t=${secs(at)},v1=${hex('sha256', secret, `${secs(at)}.`, body)}` },
    }),
  },
  thinkific: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Thinkific-Hmac-Sha256': hex('sha256', secret, body) },
    }),
  },
  dub: { sign: ({ credentials: { secret }, body }) => ({ headers: { 'Dub-Signature': hex('sha256', secret, body) } }) },
  revenuecat: { sign: ({ credentials: { secret } }) => ({ headers: { Authorization: secret } }) },
} satisfies Record<string, SignerCase>;
