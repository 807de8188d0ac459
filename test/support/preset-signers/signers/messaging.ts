import type { SignerCase } from '../signer';
import { b64, ecdsaSha256, ed25519, hex, iso, mac, secs } from '../sign';

/** Messaging, social and email: signers written from each provider's documentation. */
export const MESSAGING_SIGNERS = {
  telnyx: {
    sign: ({ credentials: { privateKey }, body, at }) => ({
      headers: {
        'telnyx-timestamp': secs(at),
        'telnyx-signature-ed25519': ed25519(privateKey, `${secs(at)}|`, body).toString('base64'),
      },
    }),
  },
  sendgrid: {
    sign: ({ credentials: { privateKey }, body, at }) => ({
      headers: {
        'X-Twilio-Email-Event-Webhook-Timestamp': secs(at),
        'X-Twilio-Email-Event-Webhook-Signature': ecdsaSha256(privateKey, secs(at), body).toString('base64'),
      },
    }),
  },
  // Mandrill: the webhook URL, then each POST key and its value, keys sorted.
  mandrill: {
    body: {
      raw: 'mandrill_events=%5B%7B%22event%22%3A%22send%22%2C%22ts%22%3A1%7D%5D',
      contentType: 'application/x-www-form-urlencoded',
    },
    sign: ({ credentials: { secret }, body, url }) => {
      const params = [...new URLSearchParams(body.toString('utf8'))].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return { headers: { 'X-Mandrill-Signature': b64('sha1', secret, url + params.map(([k, v]) => k + v).join('')) } };
    },
  },
  line: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'x-line-signature': b64('sha256', secret, body) } }),
  },
  viber: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Viber-Content-Signature': hex('sha256', secret, body) },
    }),
  },
  telegram: { sign: ({ credentials: { secret } }) => ({ headers: { 'X-Telegram-Bot-Api-Secret-Token': secret } }) },
  webex: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Spark-Signature': hex('sha1', secret, body) } }),
  },
  // Teams: the security token is base64; its decoded bytes are the HMAC key.
  microsoft_teams: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { Authorization: `HMAC ${mac('sha256', Buffer.from(secret, 'base64'), body).toString('base64')}` },
    }),
  },
  facebook: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Hub-Signature-256': `sha256=${hex('sha256', secret, body)}` },
    }),
  },
  instagram: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Hub-Signature-256': `sha256=${hex('sha256', secret, body)}` },
    }),
  },
  whatsapp: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Hub-Signature-256': `sha256=${hex('sha256', secret, body)}` },
    }),
  },
  x: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'x-twitter-webhooks-signature': `sha256=${b64('sha256', secret, body)}` },
    }),
  },
  // Twitch timestamps are RFC 3339 with nanoseconds.
  twitch: {
    sign: ({ credentials: { secret }, body, at }) => {
      const ts = iso(at).replace(/Z$/, '.123456789Z');
      return {
        headers: {
          'Twitch-Eventsub-Message-Id': 'e76c6bd4-55c9-4987-8304-da1588d8988b',
          'Twitch-Eventsub-Message-Timestamp': ts,
          'Twitch-Eventsub-Message-Signature': `sha256=${hex('sha256', secret, 'e76c6bd4-55c9-4987-8304-da1588d8988b', ts, body)}`,
        },
      };
    },
  },
  tiktok: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'TikTok-Signature': `t=${secs(at)},s=${hex('sha256', secret, `${secs(at)}.`, body)}` },
    }),
  },
  nylas: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'x-nylas-signature': hex('sha256', secret, body) } }),
  },
  sendbird: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'x-sendbird-signature': hex('sha256', secret, body) } }),
  },
  stream: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Signature': hex('sha256', secret, body) } }),
  },
  pusher: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Pusher-Key': 'app-key', 'X-Pusher-Signature': hex('sha256', secret, body) },
    }),
  },
  customer_io: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'X-CIO-Timestamp': secs(at), 'X-CIO-Signature': hex('sha256', secret, `v0:${secs(at)}:`, body) },
    }),
  },
  ringcentral: { sign: ({ credentials: { secret } }) => ({ headers: { 'Verification-Token': secret } }) },
  vapi: { sign: ({ credentials: { secret } }) => ({ headers: { 'x-vapi-secret': secret } }) },
  elevenlabs: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'ElevenLabs-Signature': `t=${secs(at)},v0=${hex('sha256', secret, `${secs(at)}.`, body)}` },
    }),
  },
  patreon: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Patreon-Signature': hex('md5', secret, body) } }),
  },
  intercom: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Hub-Signature': `sha1=${hex('sha1', secret, body)}` },
    }),
  },
  help_scout: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-HelpScout-Signature': b64('sha1', secret, body) } }),
  },
  zendesk: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: {
        'X-Zendesk-Webhook-Signature-Timestamp': iso(at),
        'X-Zendesk-Webhook-Signature': b64('sha256', secret, iso(at), body),
      },
    }),
  },
  frame_io: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: {
        'X-Frameio-Request-Timestamp': secs(at),
        'X-Frameio-Signature': `v0=${hex('sha256', secret, `v0:${secs(at)}:`, body)}`,
      },
    }),
  },
  segment: { sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Signature': hex('sha1', secret, body) } }) },
  agora: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'Agora-Signature-V2': hex('sha256', secret, body) } }),
  },
} satisfies Record<string, SignerCase>;
