import { HMAC_PRESET_INFO, HMAC_PRESETS, validateInboundAuth } from '@relay/endpoints';
import type { HmacPresetName, InboundAuthSetting } from '@relay/endpoints';
import type { InboundRequest } from '../../../../services/ingest-gateway/src/domain/auth/request';
import { verifyInbound } from '../../../../services/ingest-gateway/src/domain/auth/verify';
import { credentialsFor } from '../../../support/preset-signers/credentials';
import type { TestCredentials } from '../../../support/preset-signers/credentials';
import type { SignerCase } from '../../../support/preset-signers/signer';
import { SIGNERS } from '../../../support/preset-signers/signers';

/**
 * Every named preset, four cases each, generated from one table. The request is signed
 * by something other than Relay's verifier (an SDK, or a signer written from the provider's
 * docs in test/support/preset-signers/signers) and must verify; another secret, a changed body and a stale
 * timestamp (where the preset has one) must fail; so must a request without the signature header,
 * and no failure reason may echo a secret or a header value.
 */

const NOW = new Date('2025-06-01T12:00:00.000Z');
const URL_ = 'https://relay.example/relay/ep_1?source=test';
const JSON_BODY = Buffer.from('{"id":"evt_1","event_id":"ev_1","message":"h\u00e9llo","n":1}', 'utf8');
const FORM_BODY = Buffer.from(
  'To=%2B15551234567&From=%2B15557654321&Body=h%C3%A9llo+world&MediaUrl=b&MediaUrl=a',
  'utf8',
);

async function requestFor(c: SignerCase, credentials: TestCredentials, at: Date): Promise<InboundRequest> {
  const own = typeof c.body === 'object' ? c.body : undefined;
  const body = own !== undefined ? Buffer.from(own.raw, 'utf8') : c.body === 'form' ? FORM_BODY : JSON_BODY;
  const signed = await c.sign({ credentials, body, at, url: URL_ });
  const contentType =
    signed.contentType ??
    own?.contentType ??
    (c.body === 'form' ? 'application/x-www-form-urlencoded' : 'application/json');
  const headers = Object.fromEntries(Object.entries(signed.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    method: 'POST',
    url: signed.url ?? URL_,
    headers: { 'content-type': contentType, ...headers },
    rawBody: signed.body ?? body,
  };
}

function settingFor(preset: HmacPresetName, secret: string, toleranceSeconds?: number): InboundAuthSetting {
  const input = {
    type: 'HMAC',
    preset,
    secrets: [secret],
    ...(toleranceSeconds === undefined ? {} : { tolerance_seconds: toleranceSeconds }),
  };
  const checked = validateInboundAuth(input);
  if (!checked.ok) throw new Error(`test setting rejected: ${JSON.stringify(checked.errors)}`);
  return checked.value;
}

function flipOneByte(body: Buffer): Buffer {
  const copy = Buffer.from(body);
  const i = copy.length - 2;
  copy[i] = (copy[i] ?? 0) ^ 0x01;
  return copy;
}

// certificate-signed presets need a certificate fetched: their suite is test/unit/ingest-gateway/certificate
const SIGNED = HMAC_PRESETS.filter(
  (p): p is keyof typeof SIGNERS => HMAC_PRESET_INFO[p].spec.scheme.family !== 'certificate',
);

test('every named preset has a signer in the suite, and no signer is left without a preset', () => {
  expect(Object.keys(SIGNERS).sort()).toEqual([...SIGNED].sort());
});

const cases = SIGNED.map((preset) => ({ preset, info: HMAC_PRESET_INFO[preset], signer: SIGNERS[preset] }));

describe.each(cases)('preset $preset', ({ preset, info, signer }) => {
  const spec = info.spec;
  const credentials = credentialsFor(spec.secret.format, preset);
  const other = credentialsFor(spec.secret.format, `${preset}-other`);
  const window = spec.timestamp === undefined ? undefined : (spec.timestamp.toleranceSeconds ?? 300);
  // A preset without a default window (Discord) gets one set, so its stale case is meaningful.
  const tolerance = spec.timestamp !== undefined && spec.timestamp.toleranceSeconds === null ? window : undefined;
  const setting = settingFor(preset, credentials.secret, tolerance);
  const oracle =
    spec.oracle.kind === 'sdk'
      ? spec.oracle.name
      : spec.oracle.kind === 'vector'
        ? 'a published vector'
        : 'the documented signer';

  test(`a request signed by ${oracle} verifies`, async () => {
    expect(verifyInbound(setting, await requestFor(signer, credentials, NOW), NOW)).toEqual({ ok: true });
  });

  test('a request signed with another secret fails', async () => {
    expect(verifyInbound(setting, await requestFor(signer, other, NOW), NOW)).toMatchObject({ ok: false });
  });

  if (spec.scheme.family === 'token') {
    test('a changed body still passes: a shared token signs nothing (docs/inbound-auth.md)', async () => {
      const req = await requestFor(signer, credentials, NOW);
      expect(verifyInbound(setting, { ...req, rawBody: flipOneByte(req.rawBody) }, NOW)).toEqual({ ok: true });
    });
  } else {
    test('a body changed by one byte fails', async () => {
      const req = await requestFor(signer, credentials, NOW);
      expect(verifyInbound(setting, { ...req, rawBody: flipOneByte(req.rawBody) }, NOW)).toMatchObject({ ok: false });
    });
  }

  const signatureHeader = spec.signature?.header;
  if (signatureHeader !== undefined) {
    test(`a request without the ${signatureHeader} header fails with a reason naming it`, async () => {
      const req = await requestFor(signer, credentials, NOW);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== signatureHeader));
      expect(verifyInbound(setting, { ...req, headers }, NOW)).toEqual({
        ok: false,
        reason: `missing ${signatureHeader} header`,
      });
    });
  }

  test('the failure reason never contains a secret or a received header value', async () => {
    const req = await requestFor(signer, other, NOW);
    const result = verifyInbound(setting, req, NOW);
    const reason = result.ok ? '' : result.reason;
    for (const value of [credentials.secret, other.secret, ...Object.values(req.headers)]) {
      if (typeof value === 'string' && value.length > 8) expect(reason).not.toContain(value);
    }
  });

  if (window !== undefined) {
    test(`a timestamp ${window + 1} s old fails (window ${window} s)`, async () => {
      const stale = new Date(NOW.getTime() - (window + 1) * 1000);
      expect(verifyInbound(setting, await requestFor(signer, credentials, stale), NOW)).toEqual({
        ok: false,
        reason: 'timestamp outside tolerance',
      });
    });
  }
});
