import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { makeTestCa } from '../../../../../test/support/mtls';
import { jsonDelivery } from '../delivery.fixture';
import { classifyWebhookOutcome } from './classify';
import type { WebhookConfig } from './config';
import { createWebhookKind, REDACTED } from './index';

const secrets = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
const kind = createWebhookKind({ secrets });
const url = 'https://bank.example.com/in';
const ca = makeTestCa('validation');
const other = makeTestCa('other');

const errorsOf = (tls: unknown) => {
  const r = kind.validateConfig({ url, tls });
  return r.ok ? [] : r.errors;
};

describe('webhook mutual TLS settings (docs/targets-webhook.md "Mutual TLS")', () => {
  it('stores the certificate and pinned CA as sent and the key sealed; the view never shows the key', () => {
    const r = kind.validateConfig({
      url,
      tls: { client_certificate_pem: ca.client.cert, client_key_pem: ca.client.key, ca_pem: ca.cert },
    });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const tls = r.value.tls!;
    expect(tls.client_certificate_pem).toBe(ca.client.cert);
    expect(tls.ca_pem).toBe(ca.cert);
    expect(tls.client_key_pem).toMatch(/^enc:v1:/);
    expect(secrets.decrypt(tls.client_key_pem!)).toBe(ca.client.key);
    const view = kind.publicConfig(r.value);
    expect(view.tls).toEqual({ client_certificate_pem: ca.client.cert, client_key_pem: REDACTED, ca_pem: ca.cert });
    expect(JSON.stringify(view)).not.toContain('PRIVATE KEY');
  });

  it('is off by default, and a pinned CA alone is accepted', () => {
    const plain = kind.validateConfig({ url });
    expect(plain.ok && plain.value.tls).toBeNull();
    expect(errorsOf({ ca_pem: ca.cert })).toEqual([]);
  });

  it.each([
    [
      'an unparsable certificate',
      { client_certificate_pem: '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----' },
      'config.tls.client_certificate_pem',
      'certificate 1 of 1 is not a parsable X.509 certificate',
    ],
    [
      'no PEM certificate at all',
      { client_certificate_pem: 'hello' },
      'config.tls.client_certificate_pem',
      'must hold at least one PEM certificate (-----BEGIN CERTIFICATE-----)',
    ],
    [
      'a key pasted into the certificate field',
      { client_certificate_pem: ca.client.key },
      'config.tls.client_certificate_pem',
      'holds a private key; a private key belongs in client_key_pem only',
    ],
    [
      'an unparsable key',
      { client_key_pem: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' },
      'config.tls.client_key_pem',
      'must be a PEM private key (-----BEGIN PRIVATE KEY-----, RSA or EC)',
    ],
    [
      'a key that is not the certificate’s',
      { client_key_pem: other.client.key },
      'config.tls.client_key_pem',
      'does not match client_certificate_pem (the key is not the certificate’s private key)',
    ],
    [
      'an unparsable pinned CA',
      { ca_pem: 'CA' },
      'config.tls.ca_pem',
      'must hold at least one PEM certificate (-----BEGIN CERTIFICATE-----)',
    ],
  ])('refuses %s, naming the field', (_what, change, field, message) => {
    const tls = { client_certificate_pem: ca.client.cert, client_key_pem: ca.client.key, ...change };
    expect(errorsOf(tls)).toEqual([{ field, message }]);
  });

  it('refuses an expired client certificate, saying when it expired', () => {
    const expired = makeTestCa('expired', { clientExpiredDaysAgo: 1 }).client;
    const [problem] = errorsOf({ client_certificate_pem: expired.cert, client_key_pem: expired.key });
    expect(problem).toEqual({
      field: 'config.tls.client_certificate_pem',
      message: expect.stringMatching(/^the client certificate expired on \d{4}-\d\d-\d\dT/),
    });
  });

  it('needs the certificate and the key together, something set, and an https url', () => {
    expect(errorsOf({ client_certificate_pem: ca.client.cert })).toEqual([
      { field: 'config.tls.client_key_pem', message: 'client_key_pem is required with client_certificate_pem' },
    ]);
    expect(errorsOf({ client_key_pem: ca.client.key })).toEqual([
      { field: 'config.tls.client_certificate_pem', message: 'client_certificate_pem is required with client_key_pem' },
    ]);
    expect(errorsOf({})).toEqual([
      { field: 'config.tls', message: 'set client_certificate_pem and client_key_pem, ca_pem, or both (or omit tls)' },
    ]);
    const r = kind.validateConfig({ url: 'http://bank.example.com/', enforce_https: false, tls: { ca_pem: ca.cert } });
    expect(r.ok ? [] : r.errors).toEqual([{ field: 'config.tls', message: 'mutual TLS needs an https url' }]);
  });

  it('an error message never carries the key', () => {
    const all = errorsOf({ client_certificate_pem: other.client.cert, client_key_pem: ca.client.key, ca_pem: 'x' });
    expect(all.length).toBe(2);
    expect(JSON.stringify(all)).not.toContain(ca.client.key.split('\n')[1]);
  });
});

describe('the attempt', () => {
  const stored = (tls: unknown): WebhookConfig => {
    const r = kind.validateConfig({ url, tls });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.value;
  };
  const d: DeliveryMessageV1 = jsonDelivery('webhook', '{}');

  it('carries the opened key, the certificate and the pinned CA, owned by the delivery’s target', () => {
    const req = kind.buildRequest(
      stored({ client_certificate_pem: ca.client.cert, client_key_pem: ca.client.key, ca_pem: ca.cert }),
      d,
    );
    expect(req.tls).toEqual({
      owner: { endpointId: d.endpoint_id, targetId: d.target_id },
      cert: ca.client.cert,
      key: ca.client.key,
      ca: ca.cert,
    });
  });

  it('carries nothing without TLS settings', () => {
    expect(kind.buildRequest(stored(null), d).tls).toBeUndefined();
  });

  it.each([
    [
      'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      'tls_client_certificate_required: the receiver requires a client certificate and none was presented',
    ],
    ['ERR_SSL_TLSV1_ALERT_UNKNOWN_CA', 'tls_client_certificate_rejected: the receiver refused the client certificate'],
    [
      'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
      'tls_client_certificate_rejected: the receiver refused the client certificate',
    ],
  ])('the receiver’s alert %s is permanent, flags the target, and says so first', (code, start) => {
    const result = classifyWebhookOutcome({ error: { code, message: 'alert' }, durationMs: 1 });
    expect(result).toEqual({
      result: 'permanent',
      status: null,
      error: `${start} (${code}: alert)`,
      flagTarget: true,
    });
  });
});
