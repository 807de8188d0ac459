import { randomBytes } from 'node:crypto';
import { HMAC_PRESETS, PRESET_SPECS, validateInboundAuth } from '@relay/endpoints';
import type { HmacPresetName } from '@relay/endpoints';
import { exampleRequest } from '../../../services/management-api/dashboard/src/lib/curl';
import {
  canSignExample,
  signatureHeaders,
  signedCurlLine,
} from '../../../services/management-api/dashboard/src/lib/signed-example';
import { verifyInbound } from '../../../services/ingest-gateway/src/domain/auth/verify';

/**
 * The dashboard's signed example must be a request the gateway accepts. For every
 * preset the browser can sign, the headers it computes (WebCrypto, in lib/signed-example.ts)
 * pass the gateway's verifier for the sample request; a wrong secret does not.
 */
const NOW = new Date('2025-06-01T12:00:00.000Z');

const endpointFor = (preset: string) => ({
  ingest_url: 'https://relay.example/relay/ep_1',
  methods: ['POST'],
  payload_format: 'json',
  query_param_name: null,
  inbound_auth: { type: 'HMAC', preset },
  required_headers: [],
});

function secretFor(preset: HmacPresetName): string {
  const format = PRESET_SPECS[preset].secret.format;
  if (format === 'whsec') return `whsec_${randomBytes(24).toString('base64')}`;
  if (format === 'base64') return randomBytes(32).toString('base64');
  if (format === 'hex') return randomBytes(32).toString('hex');
  return `secret-${preset}-${randomBytes(6).toString('hex')}`;
}

const signable = HMAC_PRESETS.filter((p) => canSignExample(endpointFor(p)));

test('most presets get a signed example (all but MD5, public-key and URL+form presets)', () => {
  expect(signable.length).toBeGreaterThan(100);
  expect(canSignExample(endpointFor('discord'))).toBe(false);
  expect(canSignExample(endpointFor('twilio'))).toBe(false);
  expect(canSignExample(endpointFor('patreon'))).toBe(false);
});

test.each(signable)('%s: the gateway accepts the signed example, and not with another secret', async (preset) => {
  const secret = secretFor(preset);
  const setting = validateInboundAuth({ type: 'HMAC', preset, secrets: [secret] });
  if (!setting.ok) throw new Error(JSON.stringify(setting.errors));
  const ep = endpointFor(preset);
  const sample = exampleRequest(ep);
  const asRequest = (headers: Array<[string, string]>) => ({
    method: sample.method,
    url: sample.url,
    headers: {
      'content-type': sample.body?.type ?? '',
      ...Object.fromEntries(headers.map(([k, v]) => [k.toLowerCase(), v])),
    },
    rawBody: Buffer.from(sample.body?.body ?? ''),
  });
  const headers = await signatureHeaders(ep, secret, NOW);
  expect(verifyInbound(setting.value, asRequest(headers ?? []), NOW)).toEqual({ ok: true });
  const wrong = await signatureHeaders(ep, secretFor(preset), NOW);
  expect(verifyInbound(setting.value, asRequest(wrong ?? []), NOW)).toMatchObject({ ok: false });
});

test('the signed line is the plain curl line plus the signature headers', async () => {
  const line = await signedCurlLine(endpointFor('github'), "It's a Secret to Everybody", NOW);
  expect(line).toMatch(
    /^curl -i -X POST 'https:\/\/relay\.example\/relay\/ep_1' -H 'x-hub-signature-256: sha256=[0-9a-f]{64}' -H 'x-github-delivery: example-[0-9a-f-]{36}' -H 'content-type: application\/json' --data-raw '\{"hello":"relay"\}'$/,
  );
});
