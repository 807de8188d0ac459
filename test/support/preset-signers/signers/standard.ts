import { Webhook } from 'standardwebhooks';
import type { SignerCase } from '../signer';
import { secs } from '../sign';

/** Providers that send Standard Webhooks, signed with the standardwebhooks SDK. */
function standard(prefix: 'webhook' | 'svix', keyOf: (secret: string) => string = (s) => s): SignerCase {
  return {
    sign: ({ credentials, body, at }) => ({
      headers: {
        [`${prefix}-id`]: 'msg_2Lh9',
        [`${prefix}-timestamp`]: secs(at),
        [`${prefix}-signature`]: new Webhook(keyOf(credentials.secret)).sign('msg_2Lh9', at, body.toString('utf8')),
      },
    }),
  };
}

export const STANDARD_SIGNERS = {
  clerk: standard('svix'),
  resend: standard('svix'),
  openai: standard('webhook'),
  replicate: standard('webhook'),
  liveblocks: standard('webhook'),
  brex: standard('webhook'),
  incident_io: standard('webhook'),
  loops: standard('webhook'),
  // Polar's docs: base64-encode the secret before passing it to standardwebhooks.
  polar: standard('webhook', (s) => Buffer.from(s, 'utf8').toString('base64')),
  render: standard('webhook'),
} satisfies Record<string, SignerCase>;
