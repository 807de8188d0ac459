import { createPublicKey } from 'node:crypto';
import { ingest } from '../../../../services/ingest-gateway/src/domain/pipeline/ingest';
import { body, fakePorts, request, view } from '../../../../services/ingest-gateway/src/domain/pipeline/test-helpers';
import type { SigningCertificates } from '../../../../services/ingest-gateway/src/domain/ports';
import { makeSigningCa } from '../../../support/mtls';
import { snsMessage } from '../../../support/preset-signers/certificate-signers';
import type { SnsFields } from '../../../support/preset-signers/certificate-signers';

/**
 * The certificate step in the ingest pipeline (docs/inbound-auth.md "Certificate-signed presets"):
 * what each verdict of the certificate answers the sender and writes in the row.
 */

const ca = makeSigningCa('pipeline');
const leaf = ca.issue('sns.amazonaws.com');
const TOPIC = 'arn:aws:sns:us-east-1:123456789012:orders';
const CERT_URL = 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-1.pem';
const SUBSCRIBE_URL = `https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=t`;

const snsEndpoint = () =>
  view({ payload_format: 'text', inbound_auth: { type: 'HMAC', preset: 'aws_sns', secrets: [`sealed:${TOPIC}`] } });
const trusted: SigningCertificates = {
  get: async () => ({ ok: true, key: createPublicKey(leaf.cert), notAfter: new Date(Date.now() + 86_400_000) }),
};
const snsRequest = (fields: SnsFields, certUrl = CERT_URL) => ({
  req: request({ headers: { 'content-type': 'text/plain; charset=UTF-8' } }),
  text: snsMessage(fields, { key: leaf.key, certUrl }),
});
const notification: SnsFields = {
  Type: 'Notification',
  MessageId: 'm-1',
  TopicArn: TOPIC,
  Message: 'hello',
  Timestamp: '2025-03-10T12:00:00.000Z',
};

test('a verified Notification is accepted, its certificate asked for by URL', async () => {
  const f = fakePorts(snsEndpoint(), { certificates: trusted });
  const { req, text } = snsRequest(notification);
  expect(await ingest(f.ports, req, body(text))).toMatchObject({ accepted: true });
  expect(f.calls.certificates).toEqual([CERT_URL]);
});

test('a tampered Notification is 401 AUTH_FAILED "signature mismatch"', async () => {
  const f = fakePorts(snsEndpoint(), { certificates: trusted });
  const { req, text } = snsRequest(notification);
  const answer = await ingest(f.ports, req, body(text.replace('hello', 'jello')));
  expect(answer).toMatchObject({ accepted: false, rejection: { status: 401, code: 'auth_failed' } });
  expect(f.rows[0]).toMatchObject({ outcome: 'AUTH_FAILED', reason: 'signature mismatch' });
});

test('a SigningCertURL off the SNS hosts is 401 and nothing is fetched', async () => {
  const f = fakePorts(snsEndpoint(), { certificates: trusted });
  const { req, text } = snsRequest(notification, 'https://evil.example/cert.pem');
  expect(await ingest(f.ports, req, body(text))).toMatchObject({ rejection: { status: 401, code: 'auth_failed' } });
  expect(f.calls.certificates).toEqual([]);
});

test('a certificate that could not be fetched is 503 signing_certificate_unavailable, never accepted', async () => {
  const f = fakePorts(snsEndpoint());
  const { req, text } = snsRequest(notification);
  expect(await ingest(f.ports, req, body(text))).toMatchObject({
    accepted: false,
    rejection: { status: 503, code: 'signing_certificate_unavailable', retryAfterSeconds: 10 },
  });
  expect(f.rows[0]).toMatchObject({
    outcome: 'AUTH_FAILED',
    reason: 'signing certificate not fetched: ECONNREFUSED',
  });
  expect(f.published).toEqual([]);
});

test('an untrusted certificate is 401 with the reason the certificate check gave', async () => {
  const f = fakePorts(snsEndpoint(), {
    certificates: {
      get: async () => ({
        ok: false,
        untrusted: 'a certificate of the signing chain expired on 2025-01-01T00:00:00.000Z',
      }),
    },
  });
  const { req, text } = snsRequest(notification);
  expect(await ingest(f.ports, req, body(text))).toMatchObject({ rejection: { status: 401 } });
  expect(f.rows[0]).toMatchObject({ reason: 'a certificate of the signing chain expired on 2025-01-01T00:00:00.000Z' });
});

test('a verified SubscriptionConfirmation visits the SubscribeURL once, answers 200 and is not delivered', async () => {
  const f = fakePorts(snsEndpoint(), { certificates: trusted });
  const { req, text } = snsRequest({
    Type: 'SubscriptionConfirmation',
    MessageId: 'm-2',
    TopicArn: TOPIC,
    Token: 't',
    Message: 'You have chosen to subscribe.',
    SubscribeURL: SUBSCRIBE_URL,
    Timestamp: '2025-03-10T12:00:00.000Z',
  });
  expect(await ingest(f.ports, req, body(text))).toMatchObject({
    accepted: false,
    rejection: { status: 200, code: 'handshake_answered', reply: { body: 'confirmed' } },
  });
  expect(f.calls.confirmations).toEqual([SUBSCRIBE_URL]);
  expect(f.rows[0]).toMatchObject({ outcome: 'HANDSHAKE_ANSWERED' });
  expect(f.published).toEqual([]);
});
