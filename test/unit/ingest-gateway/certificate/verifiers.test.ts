import { X509Certificate } from 'node:crypto';
import { createPublicKey } from 'node:crypto';
import { validateInboundAuth } from '@relay/endpoints';
import type { InboundAuthSetting } from '@relay/endpoints';
import {
  certificatePlanOf,
  checkSigningCertificate,
} from '../../../../services/ingest-gateway/src/domain/auth/certificate';
import type { CertificatePlan } from '../../../../services/ingest-gateway/src/domain/auth/certificate';
import type { InboundRequest } from '../../../../services/ingest-gateway/src/domain/auth/request';
import { makeSigningCa } from '../../../support/mtls';
import { paypalHeaders, snsMessage } from '../../../support/preset-signers/certificate-signers';
import type { SnsFields } from '../../../support/preset-signers/certificate-signers';

/**
 * docs/inbound-auth.md "Certificate-signed presets": requests signed by the providers' documented
 * algorithms (test/support/preset-signers/certificate-signers.ts) with certificates of a CA made
 * here, checked by the gateway's certificate step without the fetch (the adapter's tests cover it).
 */

const NOW = new Date();
const ca = makeSigningCa('verifiers');
const anchors = [new X509Certificate(ca.cert)];
const sns = ca.issue('sns.amazonaws.com');
const paypal = ca.issue('messageverificationcerts.paypal.com');
const SNS_CERT_URL = 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0123.pem';
const PAYPAL_CERT_URL = 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77';
const TOPIC = 'arn:aws:sns:us-east-1:123456789012:orders';
const WEBHOOK_ID = '1JE4291016473214C';

function setting(preset: 'aws_sns' | 'paypal', secrets: string[], extra: object = {}): InboundAuthSetting {
  const checked = validateInboundAuth({ type: 'HMAC', preset, secrets, ...extra });
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.value;
}

const request = (body: string | Buffer, headers: Record<string, string> = {}): InboundRequest => ({
  method: 'POST',
  url: 'https://relay.example/relay/ep_1',
  headers: { 'content-type': 'text/plain; charset=UTF-8', ...headers },
  rawBody: Buffer.from(body),
});

const notification = (over: Partial<SnsFields> = {}): SnsFields => ({
  Type: 'Notification',
  MessageId: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324',
  TopicArn: TOPIC,
  Subject: 'My First Message',
  Message: 'Hello world!\nsecond line "quoted"',
  Timestamp: '2012-05-02T00:54:06.655Z',
  ...over,
});

/** The plan's verdict with the leaf's key, as the pipeline reaches it once the certificate is trusted. */
function verdict(plan: CertificatePlan | null, leaf = sns.cert) {
  if (plan === null) throw new Error('not a certificate preset');
  if (!plan.ok) return { ok: false, reason: plan.reason };
  return plan.signed.verify(createPublicKey(leaf));
}

describe('the signing certificate (chain, validity, name)', () => {
  test('a leaf naming the provider, issued by a trusted CA and valid now, is trusted until its chain’s first notAfter', () => {
    const answer = checkSigningCertificate(sns.cert, anchors, 'aws_sns', NOW);
    const ends = [sns.cert, ca.cert].map((pem) => Date.parse(new X509Certificate(pem).validTo));
    expect(answer).toMatchObject({ ok: true, notAfter: new Date(Math.min(...ends)) });
  });

  test('an intermediate sent after the leaf is followed to the anchor; without it the chain breaks', () => {
    const root = makeSigningCa('root');
    const intermediate = root.issueCa('intermediate');
    const leaf = intermediate.issue('sns.amazonaws.com');
    const trustRoot = [new X509Certificate(root.cert)];
    expect(checkSigningCertificate(`${leaf.cert}${intermediate.cert}`, trustRoot, 'aws_sns', NOW)).toMatchObject({
      ok: true,
    });
    expect(checkSigningCertificate(leaf.cert, trustRoot, 'aws_sns', NOW)).toMatchObject({ ok: false });
  });

  test.each([
    [
      'issued by another CA',
      () => makeSigningCa('other').issue('sns.amazonaws.com').cert,
      'does not chain to a trusted root',
    ],
    ['expired', () => ca.issue('sns.amazonaws.com', { expiredDaysAgo: 2 }).cert, 'expired on'],
    ['naming another service', () => ca.issue('evil.example').cert, 'does not name sns.amazonaws.com'],
    ['not a certificate', () => '<html>not found</html>', 'answered no PEM certificate'],
  ])('a certificate %s is refused with a reason saying so', (_what, pem, reason) => {
    const answer = checkSigningCertificate(pem(), anchors, 'aws_sns', NOW);
    expect(answer.ok).toBe(false);
    expect(answer.ok ? '' : answer.untrusted).toContain(reason);
  });

  test("PayPal's certificate must name PayPal's message verification service, not SNS", () => {
    expect(checkSigningCertificate(paypal.cert, anchors, 'paypal', NOW)).toMatchObject({ ok: true });
    expect(checkSigningCertificate(sns.cert, anchors, 'paypal', NOW)).toMatchObject({ ok: false });
  });
});

describe('aws_sns', () => {
  const topics = setting('aws_sns', [TOPIC]);

  test.each(['1', '2'] as const)('a Notification signed as SignatureVersion %s verifies', (version) => {
    const body = snsMessage(notification(), { key: sns.key, certUrl: SNS_CERT_URL, version });
    expect(verdict(certificatePlanOf(topics, request(body), NOW))).toEqual({ ok: true });
  });

  test('a Notification without a Subject verifies (Subject is signed only when present)', () => {
    const fields = notification();
    delete fields.Subject;
    const body = snsMessage(fields, { key: sns.key, certUrl: SNS_CERT_URL });
    expect(verdict(certificatePlanOf(topics, request(body), NOW))).toEqual({ ok: true });
  });

  test('a changed Message fails the signature', () => {
    const body = snsMessage(notification(), { key: sns.key, certUrl: SNS_CERT_URL }).replace('Hello', 'Jello');
    expect(verdict(certificatePlanOf(topics, request(body), NOW))).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  test('a message signed by another key (not the certificate named) fails', () => {
    const body = snsMessage(notification(), { key: ca.issue('sns.amazonaws.com').key, certUrl: SNS_CERT_URL });
    expect(verdict(certificatePlanOf(topics, request(body), NOW))).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  test.each([
    'http://sns.us-east-1.amazonaws.com/SimpleNotificationService-0123.pem',
    'https://sns.us-east-1.amazonaws.com.evil.example/SimpleNotificationService-0123.pem',
    'https://evil.example/sns.us-east-1.amazonaws.com/x.pem',
    'https://sns.us-east-1.amazonaws.com:8443/SimpleNotificationService-0123.pem',
    'https://user@sns.us-east-1.amazonaws.com/SimpleNotificationService-0123.pem',
    'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0123.txt',
    // an S3 bucket named "sns" on a legacy regional S3 host
    'https://sns.s3-us-west-2.amazonaws.com/SimpleNotificationService-0123.pem',
    'https://sns.s3-website-us-east-1.amazonaws.com/SimpleNotificationService-0123.pem',
  ])('a SigningCertURL off the SNS hosts is refused before any fetch: %s', (certUrl) => {
    const body = snsMessage(notification(), { key: sns.key, certUrl });
    expect(certificatePlanOf(topics, request(body), NOW)).toEqual({
      ok: false,
      reason: 'SigningCertURL is not an SNS certificate URL (https://sns.<region>.amazonaws.com/….pem)',
    });
  });

  test('the China partition host is an SNS host', () => {
    const body = snsMessage(notification(), {
      key: sns.key,
      certUrl: 'https://sns.cn-north-1.amazonaws.com.cn/S-1.pem',
    });
    expect(certificatePlanOf(topics, request(body), NOW)).toMatchObject({ ok: true });
  });

  test("a message from a topic that is not one of the endpoint's is refused", () => {
    const body = snsMessage(notification({ TopicArn: 'arn:aws:sns:us-east-1:123456789012:other' }), {
      key: sns.key,
      certUrl: SNS_CERT_URL,
    });
    expect(certificatePlanOf(topics, request(body), NOW)).toEqual({
      ok: false,
      reason: 'SNS TopicArn is not one of the endpoint topics',
    });
  });

  test.each([
    ['not JSON', 'hello', 'the body is not an SNS message (a JSON object)'],
    ['of an unknown Type', JSON.stringify({ Type: 'Other' }), 'SNS message Type is missing or unknown'],
    [
      'of SignatureVersion 3',
      JSON.stringify({ ...notification(), SignatureVersion: '3', Signature: 'AA==' }),
      'SNS SignatureVersion is missing or not 1 or 2',
    ],
  ])('a body %s is refused', (_what, body, reason) => {
    expect(certificatePlanOf(topics, request(body), NOW)).toEqual({ ok: false, reason });
  });

  const confirmation = (subscribeUrl: string): SnsFields => ({
    Type: 'SubscriptionConfirmation',
    MessageId: '165545c9-2a5c-472c-8df2-7ff2be2b3b1b',
    TopicArn: TOPIC,
    Token: '2336412f37fb687f5d51e6e241d164b0533302ec696efc8f113cd2252ce8a925',
    Message: `You have chosen to subscribe to the topic ${TOPIC}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
    SubscribeURL: subscribeUrl,
    Timestamp: '2012-04-26T20:45:04.751Z',
  });

  test('a SubscriptionConfirmation verifies and carries the SubscribeURL to visit', () => {
    const url = `https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=abc`;
    const plan = certificatePlanOf(
      topics,
      request(snsMessage(confirmation(url), { key: sns.key, certUrl: SNS_CERT_URL })),
      NOW,
    );
    expect(verdict(plan)).toEqual({ ok: true });
    expect(plan).toMatchObject({ ok: true, signed: { subscribeUrl: url } });
  });

  test('a SubscriptionConfirmation whose SubscribeURL is off the SNS hosts is refused, and nothing is visited', () => {
    const body = snsMessage(confirmation('https://evil.example/?Action=ConfirmSubscription'), {
      key: sns.key,
      certUrl: SNS_CERT_URL,
    });
    expect(certificatePlanOf(topics, request(body), NOW)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('SubscribeURL'),
    });
  });
});

describe('paypal', () => {
  const ids = setting('paypal', [WEBHOOK_ID]);
  const body = Buffer.from('{"id":"WH-9UG43882HX7271132-6E0871324L7949614","event_type":"PAYMENT.SALE.COMPLETED"}');
  const headers = (over: Partial<Parameters<typeof paypalHeaders>[1]> = {}) =>
    paypalHeaders(body, {
      key: paypal.key,
      certUrl: PAYPAL_CERT_URL,
      webhookId: WEBHOOK_ID,
      transmissionId: 'd938e770-8046-11e6-8103-6b62a8a99ac4',
      at: NOW,
      ...over,
    });

  test('a transmission signed as PayPal documents verifies', () => {
    expect(verdict(certificatePlanOf(ids, request(body, headers()), NOW), paypal.cert)).toEqual({ ok: true });
  });

  test('a body changed by one byte fails (the CRC32 of the body is signed)', () => {
    const changed = Buffer.from(body);
    changed[5] = changed[5]! ^ 1;
    expect(verdict(certificatePlanOf(ids, request(changed, headers()), NOW), paypal.cert)).toEqual({
      ok: false,
      reason: 'signature mismatch',
    });
  });

  test('a transmission for another webhook fails; the second webhook id of a rotation passes', () => {
    const other = headers({ webhookId: 'OTHER0000000000' });
    expect(verdict(certificatePlanOf(ids, request(body, other), NOW), paypal.cert)).toEqual({
      ok: false,
      reason: 'signature mismatch',
    });
    const both = setting('paypal', [WEBHOOK_ID, 'OTHER0000000000']);
    expect(verdict(certificatePlanOf(both, request(body, other), NOW), paypal.cert)).toEqual({ ok: true });
  });

  test.each([
    'https://api.paypal.com.evil.example/v1/notifications/certs/CERT-1',
    'https://evil.example/v1/notifications/certs/CERT-1',
    'http://api.paypal.com/v1/notifications/certs/CERT-1',
    'https://api.paypal.com/v1/oauth2/token',
  ])('a paypal-cert-url off PayPal’s certificate hosts is refused before any fetch: %s', (certUrl) => {
    expect(certificatePlanOf(ids, request(body, headers({ certUrl })), NOW)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('paypal-cert-url is not a PayPal certificate URL'),
    });
  });

  test('a request without paypal-transmission-sig is refused with a reason naming it', () => {
    const { 'paypal-transmission-sig': _sig, ...rest } = headers();
    expect(certificatePlanOf(ids, request(body, rest), NOW)).toEqual({
      ok: false,
      reason: 'missing paypal-transmission-sig header',
    });
  });

  test('another auth algorithm is refused', () => {
    expect(certificatePlanOf(ids, request(body, { ...headers(), 'paypal-auth-algo': 'SHA1withRSA' }), NOW)).toEqual({
      ok: false,
      reason: 'paypal-auth-algo is not SHA256withRSA',
    });
  });

  test('with tolerance_seconds set, a transmission older than the window fails once its signature passed', () => {
    const windowed = setting('paypal', [WEBHOOK_ID], { tolerance_seconds: 300 });
    const stale = headers({ at: new Date(NOW.getTime() - 301_000) });
    expect(verdict(certificatePlanOf(windowed, request(body, stale), NOW), paypal.cert)).toEqual({
      ok: false,
      reason: 'timestamp outside tolerance',
    });
    expect(verdict(certificatePlanOf(ids, request(body, stale), NOW), paypal.cert)).toEqual({ ok: true });
  });

  test('the webhook id must have the shape PayPal gives it', () => {
    expect(validateInboundAuth({ type: 'HMAC', preset: 'paypal', secrets: ['not an id!'] })).toMatchObject({
      ok: false,
      errors: [{ field: 'inbound_auth.hmac.secrets[0]', message: "must be the webhook's id: 1–50 letters and digits" }],
    });
  });
});
