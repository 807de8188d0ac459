import { createHmac, generateKeyPairSync, sign as ed25519Sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { sign as octokitSign } from '@octokit/webhooks-methods';
import type { HmacPresetName, InboundAuthSetting } from '@relay/endpoints';
import { HMAC_PRESETS, validateInboundAuth } from '@relay/endpoints';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import twilio from 'twilio';
import type { InboundRequest } from '../../../../services/ingest-gateway/src/domain/auth/request';
import { verifyInbound } from '../../../../services/ingest-gateway/src/domain/auth/verify';

/**
 * The suite every HMAC preset passes (STYLE "shared suites"): a genuine signature verifies, the
 * rotation secret verifies, a changed body, another secret and a missing header fail. Signers
 * are the providers' SDKs where one exists; otherwise the provider's documented recipe written
 * here with node:crypto, independently of the code under test.
 */

const NOW = new Date('2025-06-01T12:00:00.000Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const URL_ = 'https://relay.example/relay/ep_1?source=test';
const JSON_BODY = Buffer.from('{"id":"evt_1","message":"h\u00e9llo","n":1}', 'utf8');
const FORM_BODY = Buffer.from(
  'To=%2B15551234567&From=%2B15557654321&Body=h%C3%A9llo+world&MediaUrl=b&MediaUrl=a',
  'utf8',
);

const stripe = new Stripe('sk_test_relay');

function request(
  headers: Record<string, string>,
  body: Buffer,
  url = URL_,
  contentType = 'application/json',
): InboundRequest {
  return { method: 'POST', url, headers: { 'content-type': contentType, ...headers }, rawBody: body };
}

const hmacHex = (secret: string, content: string | Buffer, ...more: (string | Buffer)[]): string => {
  const mac = createHmac('sha256', secret).update(content);
  for (const m of more) mac.update(m);
  return mac.digest('hex');
};

function ed25519Pair(): { publicHex: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  return { publicHex: Buffer.from(jwk.x ?? '', 'base64url').toString('hex'), privateKey };
}

interface PresetCase {
  preset: HmacPresetName;
  /** Who produced the signature in this suite. */
  signer: string;
  /** Two valid secrets: [current, rotation]. */
  secrets: [string, string];
  wrongSecret: string;
  body: Buffer;
  sign(secret: string, body: Buffer): Promise<InboundRequest> | InboundRequest;
  /** Headers whose absence must fail. */
  required: string[];
}

const discordKeys = new Map([ed25519Pair(), ed25519Pair(), ed25519Pair()].map((k) => [k.publicHex, k.privateKey]));
const [discordA = '', discordB = '', discordWrong = ''] = [...discordKeys.keys()];

function twilioSigned(secret: string, body: Buffer): InboundRequest {
  const params: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(body.toString('utf8'))) {
    const prev = params[k];
    params[k] = prev === undefined ? v : ([] as string[]).concat(prev, v);
  }
  const signature = twilio.getExpectedTwilioSignature(secret, URL_, params);
  return request({ 'x-twilio-signature': signature }, body, URL_, 'application/x-www-form-urlencoded');
}

function standardWebhooksSigned(prefix: 'webhook' | 'svix') {
  return (secret: string, body: Buffer): InboundRequest => {
    const signature = new Webhook(secret).sign('msg_2Lh9', NOW, body.toString('utf8'));
    return request(
      { [`${prefix}-id`]: 'msg_2Lh9', [`${prefix}-timestamp`]: String(NOW_S), [`${prefix}-signature`]: signature },
      body,
    );
  };
}

const CASES: PresetCase[] = [
  {
    preset: 'github',
    signer: '@octokit/webhooks-methods sign',
    secrets: ['gh-secret-current', 'gh-secret-next'],
    wrongSecret: 'gh-secret-wrong',
    body: JSON_BODY,
    sign: async (secret, body) =>
      request(
        { 'x-hub-signature-256': await octokitSign(secret, body.toString('utf8')), 'x-github-delivery': 'd-1' },
        body,
      ),
    required: ['x-hub-signature-256'],
  },
  {
    preset: 'stripe',
    signer: 'stripe.webhooks.generateTestHeaderString',
    secrets: ['whsec_stripe_current', 'whsec_stripe_next'],
    wrongSecret: 'whsec_stripe_wrong',
    body: JSON_BODY,
    sign: (secret, body) =>
      request(
        {
          'stripe-signature': stripe.webhooks.generateTestHeaderString({
            payload: body.toString('utf8'),
            secret,
            timestamp: NOW_S,
          }),
        },
        body,
      ),
    required: ['stripe-signature'],
  },
  {
    preset: 'slack',
    signer: 'Slack v0 basestring (test-side HMAC)',
    secrets: ['8f742231b10e8888abcd99yyyzzz85a5', '9e853342c21f9999bcde00zzzaaa96b6'],
    wrongSecret: 'slack-wrong',
    body: FORM_BODY,
    sign: (secret, body) =>
      request(
        {
          'x-slack-signature': `v0=${hmacHex(secret, `v0:${NOW_S}:`, body)}`,
          'x-slack-request-timestamp': String(NOW_S),
        },
        body,
        URL_,
        'application/x-www-form-urlencoded',
      ),
    required: ['x-slack-signature', 'x-slack-request-timestamp'],
  },
  {
    preset: 'shopify',
    signer: 'Shopify base64 HMAC (test-side HMAC)',
    secrets: ['shpss_current', 'shpss_next'],
    wrongSecret: 'shpss_wrong',
    body: JSON_BODY,
    sign: (secret, body) =>
      request({ 'x-shopify-hmac-sha256': createHmac('sha256', secret).update(body).digest('base64') }, body),
    required: ['x-shopify-hmac-sha256'],
  },
  {
    preset: 'twilio',
    signer: 'twilio.getExpectedTwilioSignature',
    secrets: ['twilio-auth-token-1', 'twilio-auth-token-2'],
    wrongSecret: 'twilio-auth-token-x',
    body: FORM_BODY,
    sign: twilioSigned,
    required: ['x-twilio-signature'],
  },
  {
    preset: 'standard_webhooks',
    signer: 'standardwebhooks Webhook.sign',
    secrets: [
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'whsec_' + Buffer.from('next-signing-key-bytes').toString('base64'),
    ],
    wrongSecret: 'whsec_' + Buffer.from('wrong-signing-key').toString('base64'),
    body: JSON_BODY,
    sign: standardWebhooksSigned('webhook'),
    required: ['webhook-signature', 'webhook-id', 'webhook-timestamp'],
  },
  {
    preset: 'svix',
    signer: 'standardwebhooks Webhook.sign with svix-* headers',
    secrets: ['whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD', 'whsec_' + Buffer.from('svix-next-key').toString('base64')],
    wrongSecret: 'whsec_' + Buffer.from('svix-wrong-key').toString('base64'),
    body: JSON_BODY,
    sign: standardWebhooksSigned('svix'),
    required: ['svix-signature', 'svix-id', 'svix-timestamp'],
  },
  {
    preset: 'zoom',
    signer: 'Zoom v0 message (test-side HMAC)',
    secrets: ['zoom-secret-token-1', 'zoom-secret-token-2'],
    wrongSecret: 'zoom-secret-token-x',
    body: JSON_BODY,
    sign: (secret, body) =>
      request(
        { 'x-zm-signature': `v0=${hmacHex(secret, `v0:${NOW_S}:`, body)}`, 'x-zm-request-timestamp': String(NOW_S) },
        body,
      ),
    required: ['x-zm-signature', 'x-zm-request-timestamp'],
  },
  {
    preset: 'paddle',
    signer: 'Paddle ts/h1 (test-side HMAC; SDK cross-check in paddle.test.ts)',
    secrets: ['pdl_ntfset_current', 'pdl_ntfset_next'],
    wrongSecret: 'pdl_ntfset_wrong',
    body: JSON_BODY,
    sign: (secret, body) =>
      request({ 'paddle-signature': `ts=${NOW_S};h1=${hmacHex(secret, `${NOW_S}:`, body)}` }, body),
    required: ['paddle-signature'],
  },
  {
    preset: 'square',
    signer: 'Square URL+body base64 (test-side HMAC)',
    secrets: ['square-signature-key-1', 'square-signature-key-2'],
    wrongSecret: 'square-signature-key-x',
    body: JSON_BODY,
    sign: (secret, body) =>
      request(
        { 'x-square-hmacsha256-signature': createHmac('sha256', secret).update(URL_).update(body).digest('base64') },
        body,
      ),
    required: ['x-square-hmacsha256-signature'],
  },
  {
    preset: 'linear',
    signer: 'Linear hex HMAC (test-side HMAC)',
    secrets: ['lin_wh_current', 'lin_wh_next'],
    wrongSecret: 'lin_wh_wrong',
    body: JSON_BODY,
    sign: (secret, body) =>
      request(
        {
          'linear-signature': hmacHex(secret, body),
          'linear-timestamp': String(NOW.getTime()),
          'linear-delivery': 'dl-1',
        },
        body,
      ),
    required: ['linear-signature', 'linear-timestamp'],
  },
  {
    preset: 'gitlab',
    signer: 'GitLab X-Gitlab-Token',
    secrets: ['glpat-like-token-1', 'glpat-like-token-2'],
    wrongSecret: 'glpat-like-token-x',
    body: JSON_BODY,
    sign: (secret, body) => request({ 'x-gitlab-token': secret }, body),
    required: ['x-gitlab-token'],
  },
  {
    preset: 'discord',
    signer: 'node:crypto Ed25519 (cross-checked with discord-interactions verifyKey in discord.test.ts)',
    secrets: [discordA, discordB],
    wrongSecret: discordWrong,
    body: JSON_BODY,
    sign: (publicHex, body) => {
      const ts = String(NOW_S);
      const privateKey = discordKeys.get(publicHex);
      if (!privateKey) throw new Error('unknown test key');
      const signature = ed25519Sign(null, Buffer.concat([Buffer.from(ts), body]), privateKey).toString('hex');
      return request({ 'x-signature-ed25519': signature, 'x-signature-timestamp': ts }, body);
    },
    required: ['x-signature-ed25519', 'x-signature-timestamp'],
  },
];

function settingFor(c: PresetCase, secrets: string[] = c.secrets): InboundAuthSetting {
  const checked = validateInboundAuth({ type: 'HMAC', preset: c.preset, secrets });
  if (!checked.ok) throw new Error(`test setting rejected: ${JSON.stringify(checked.errors)}`);
  return checked.value;
}

function flipOneByte(body: Buffer): Buffer {
  const copy = Buffer.from(body);
  const i = copy.length - 2;
  copy[i] = (copy[i] ?? 0) ^ 0x01;
  return copy;
}

// The catalog has grown past these thirteen; preset-suite.test.ts runs every preset, this file
// keeps its deeper cases for the presets Relay named first.
test('every one of the first thirteen presets has a case in this suite', () => {
  expect(CASES.map((c) => c.preset).sort()).toEqual(HMAC_PRESETS.slice(0, 13).sort());
});

describe.each(CASES)('HMAC preset $preset', (c) => {
  test(`a signature made by ${c.signer} verifies`, async () => {
    expect(verifyInbound(settingFor(c), await c.sign(c.secrets[0], c.body), NOW)).toEqual({ ok: true });
  });

  test('the second (rotation) secret is accepted', async () => {
    expect(verifyInbound(settingFor(c), await c.sign(c.secrets[1], c.body), NOW)).toEqual({ ok: true });
  });

  if (c.preset === 'gitlab') {
    test('a body changed by one byte still passes: a shared token signs nothing (docs/inbound-auth.md)', async () => {
      const req = await c.sign(c.secrets[0], c.body);
      expect(verifyInbound(settingFor(c), { ...req, rawBody: flipOneByte(c.body) }, NOW)).toEqual({ ok: true });
    });
  } else {
    test('a body changed by one byte fails', async () => {
      const req = await c.sign(c.secrets[0], c.body);
      expect(verifyInbound(settingFor(c), { ...req, rawBody: flipOneByte(c.body) }, NOW)).toEqual({
        ok: false,
        reason: expect.any(String),
      });
    });
  }

  test('a signature made with another secret fails', async () => {
    const result = verifyInbound(settingFor(c), await c.sign(c.wrongSecret, c.body), NOW);
    expect(result).toMatchObject({ ok: false });
  });

  test('a secret that was rotated out is no longer accepted', async () => {
    const result = verifyInbound(settingFor(c, [c.secrets[1]]), await c.sign(c.secrets[0], c.body), NOW);
    expect(result).toMatchObject({ ok: false });
  });

  test.each(c.required)('a request without the %s header fails with a reason naming it', async (header) => {
    const req = await c.sign(c.secrets[0], c.body);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== header));
    expect(verifyInbound(settingFor(c), { ...req, headers }, NOW)).toEqual({
      ok: false,
      reason: `missing ${header} header`,
    });
  });

  test('the failure reason never contains a secret or the signature', async () => {
    const req = await c.sign(c.wrongSecret, c.body);
    const result = verifyInbound(settingFor(c), req, NOW);
    const reason = result.ok ? '' : result.reason;
    for (const value of [...c.secrets, c.wrongSecret, ...Object.values(req.headers)]) {
      if (typeof value === 'string' && value.length > 8) expect(reason).not.toContain(value);
    }
  });
});
