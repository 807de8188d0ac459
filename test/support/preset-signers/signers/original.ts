import { sign as octokitSign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import twilio from 'twilio';
import type { SignerCase } from '../signer';
import { b64, ed25519, hex, millis, secs } from '../sign';

const stripe = new Stripe('sk_test_relay');

function standardWebhooks(prefix: 'webhook' | 'svix'): SignerCase {
  return {
    sign: ({ credentials, body, at }) => ({
      headers: {
        [`${prefix}-id`]: 'msg_2Lh9',
        [`${prefix}-timestamp`]: secs(at),
        [`${prefix}-signature`]: new Webhook(credentials.secret).sign('msg_2Lh9', at, body.toString('utf8')),
      },
    }),
  };
}

function twilioParams(body: Buffer): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(body.toString('utf8'))) {
    const prev = params[k];
    params[k] = prev === undefined ? v : ([] as string[]).concat(prev, v);
  }
  return params;
}

/** The presets Relay named first; SDK signers where the provider publishes one. */
export const ORIGINAL_SIGNERS = {
  github: {
    sign: async ({ credentials, body }) => ({
      headers: { 'x-hub-signature-256': await octokitSign(credentials.secret, body.toString('utf8')) },
    }),
  },
  stripe: {
    sign: ({ credentials, body, at }) => ({
      headers: {
        'stripe-signature': stripe.webhooks.generateTestHeaderString({
          payload: body.toString('utf8'),
          secret: credentials.secret,
          timestamp: Number(secs(at)),
        }),
      },
    }),
  },
  slack: {
    body: 'form',
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: {
        'x-slack-signature': `v0=${hex('sha256', secret, `v0:${secs(at)}:`, body)}`,
        'x-slack-request-timestamp': secs(at),
      },
    }),
  },
  shopify: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'x-shopify-hmac-sha256': b64('sha256', secret, body) },
    }),
  },
  twilio: {
    body: 'form',
    sign: ({ credentials: { secret }, body, url }) => ({
      headers: { 'x-twilio-signature': twilio.getExpectedTwilioSignature(secret, url, twilioParams(body)) },
    }),
  },
  standard_webhooks: standardWebhooks('webhook'),
  svix: standardWebhooks('svix'),
  zoom: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: {
        'x-zm-signature': `v0=${hex('sha256', secret, `v0:${secs(at)}:`, body)}`,
        'x-zm-request-timestamp': secs(at),
      },
    }),
  },
  paddle: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'paddle-signature': `ts=${secs(at)};h1=${hex('sha256', secret, `${secs(at)}:`, body)}` },
    }),
  },
  square: {
    sign: ({ credentials: { secret }, body, url }) => ({
      headers: { 'x-square-hmacsha256-signature': b64('sha256', secret, url, body) },
    }),
  },
  linear: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'linear-signature': hex('sha256', secret, body), 'linear-timestamp': millis(at) },
    }),
  },
  gitlab: { sign: ({ credentials: { secret } }) => ({ headers: { 'x-gitlab-token': secret } }) },
  discord: {
    sign: ({ credentials: { privateKey }, body, at }) => ({
      headers: {
        'x-signature-ed25519': ed25519(privateKey, secs(at), body).toString('hex'),
        'x-signature-timestamp': secs(at),
      },
    }),
  },
} satisfies Record<string, SignerCase>;
