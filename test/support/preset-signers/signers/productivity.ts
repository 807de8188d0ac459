import type { SignerCase } from '../signer';
import { b64, hex, iso, mac, millis } from '../sign';

/** Productivity, files and identity: signers written from each provider's documentation. */
export const PRODUCTIVITY_SIGNERS = {
  asana: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Hook-Signature': hex('sha256', secret, body) } }),
  },
  // Trello: the body, then the callback URL the webhook was created with.
  trello: {
    sign: ({ credentials: { secret }, body, url }) => ({
      headers: { 'X-Trello-Webhook': b64('sha1', secret, body, url) },
    }),
  },
  notion: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Notion-Signature': `sha256=${hex('sha256', secret, body)}` },
    }),
  },
  // Airtable: macSecretBase64 decodes to the key bytes.
  airtable: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: {
        'X-Airtable-Content-MAC': `hmac-sha256=${mac('sha256', Buffer.from(secret, 'base64'), body).toString('hex')}`,
      },
    }),
  },
  clickup: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Signature': hex('sha256', secret, body) } }),
  },
  todoist: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Todoist-Hmac-SHA256': b64('sha256', secret, body) },
    }),
  },
  dropbox: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Dropbox-Signature': hex('sha256', secret, body) } }),
  },
  // Box: body bytes, then the delivery timestamp.
  box: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: {
        'BOX-DELIVERY-TIMESTAMP': iso(at),
        'BOX-SIGNATURE-PRIMARY': b64('sha256', secret, body, iso(at)),
        'BOX-SIGNATURE-VERSION': '1',
        'BOX-SIGNATURE-ALGORITHM': 'HmacSHA256',
      },
    }),
  },
  workos: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: { 'WorkOS-Signature': `t=${millis(at)}, v1=${hex('sha256', secret, `${millis(at)}.`, body)}` },
    }),
  },
  // Graph: every notification in `value` carries the subscription's clientState (ends in a
  // number so the suite's one-byte change keeps it JSON).
  microsoft_graph: {
    sign: ({ credentials: { secret } }) => ({
      headers: {},
      body: Buffer.from(
        JSON.stringify({
          value: [{ subscriptionId: 'sub-1', clientState: secret, changeType: 'created', resource: 'me/messages/1' }],
          n: 10,
        }),
      ),
    }),
  },
  auth0: { sign: ({ credentials: { secret } }) => ({ headers: { Authorization: secret } }) },
} satisfies Record<string, SignerCase>;
