import type { SignerCase } from '../signer';
import { b64, hex, iso, millis, rsaSha256, secs } from '../sign';

/** Payments, billing and finance: signers written from each provider's documentation. */
export const PAYMENT_SIGNERS = {
  lemon_squeezy: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Signature': hex('sha256', secret, body) } }),
  },
  razorpay: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Razorpay-Signature': hex('sha256', secret, body) } }),
  },
  paystack: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'x-paystack-signature': hex('sha512', secret, body) } }),
  },
  flutterwave: { sign: ({ credentials: { secret } }) => ({ headers: { 'verif-hash': secret } }) },
  coinbase_commerce: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-CC-Webhook-Signature': hex('sha256', secret, body) },
    }),
  },
  gocardless: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'Webhook-Signature': hex('sha256', secret, body) } }),
  },
  checkout_com: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'Cko-Signature': hex('sha256', secret, body) } }),
  },
  maxio: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Chargify-Webhook-Signature-Hmac-Sha-256': hex('sha256', secret, body) },
    }),
  },
  fastspring: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-FS-Signature': b64('sha256', secret, body) } }),
  },
  // Authorize.net's docs show the digest in upper-case hex.
  authorize_net: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-ANET-Signature': `sha512=${hex('sha512', secret, body).toUpperCase()}` },
    }),
  },
  dwolla: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Request-Signature-SHA-256': hex('sha256', secret, body) },
    }),
  },
  btcpay: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'BTCPay-Sig': `sha256=${hex('sha256', secret, body)}` },
    }),
  },
  persona: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'Persona-Signature': `t=${secs(at)},v1=${hex('sha256', secret, `${secs(at)}.`, body)}` },
    }),
  },
  onfido: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-SHA2-Signature': hex('sha256', secret, body) } }),
  },
  airwallex: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'x-timestamp': millis(at), 'x-signature': hex('sha256', secret, millis(at), body) },
    }),
  },
  // Orb's timestamp is ISO 8601 without a zone (UTC).
  orb: {
    sign: ({ credentials: { secret }, body, at }) => {
      const ts = iso(at).replace(/Z$/, '.123456');
      return {
        headers: { 'X-Orb-Timestamp': ts, 'X-Orb-Signature': `v1=${hex('sha256', secret, `v1:${ts}:`, body)}` },
      };
    },
  },
  modern_treasury: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Signature': hex('sha256', secret, body) } }),
  },
  xero: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'x-xero-signature': b64('sha256', secret, body) } }),
  },
  quickbooks: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'intuit-signature': b64('sha256', secret, body) } }),
  },
  alchemy: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Alchemy-Signature': hex('sha256', secret, body) } }),
  },
  recurly: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'recurly-signature': `${millis(at)},${hex('sha256', secret, `${millis(at)}.`, body)}` },
    }),
  },
  unit: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Unit-Signature': b64('sha1', secret, body) } }),
  },
  bolt: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Bolt-Hmac-Sha256': b64('sha256', secret, body) } }),
  },
  revolut_business: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: {
        'Revolut-Request-Timestamp': millis(at),
        'Revolut-Signature': `v1=${hex('sha256', secret, `v1.${millis(at)}.`, body)}`,
      },
    }),
  },
  wise: {
    sign: ({ credentials: { privateKey }, body }) => ({
      headers: { 'X-Signature-SHA256': rsaSha256(privateKey, body).toString('base64') },
    }),
  },
} satisfies Record<string, SignerCase>;
