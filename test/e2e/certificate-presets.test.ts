import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { must } from '@relay/client';
import { startHttpsFake } from '../support/https-fake';
import { eventually } from '../support/infra';
import type { HttpsFake } from '../support/https-fake';
import { makeSigningCa } from '../support/mtls';
import { paypalHeaders, snsMessage } from '../support/preset-signers/certificate-signers';
import type { SnsFields } from '../support/preset-signers/certificate-signers';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/*
 * Certificate-signed presets (docs/inbound-auth.md "Certificate-signed presets") on a real
 * gateway process: the worker's shared stack, plus one ingest gateway of this file's own whose
 * HOST_ROUTES point SNS's and PayPal's certificate hosts at a local HTTPS fake, as the chat
 * tests point chat platforms at theirs; NODE_EXTRA_CA_CERTS holds the fake's TLS certificate and
 * a signing CA made here, which issues the providers' signing certificates. The SSRF guard stays
 * on (the stack allows 127.0.0.0/8, as for every local receiver).
 */

const SNS_HOST = 'sns.us-east-1.amazonaws.com';
const PAYPAL_HOST = 'api.sandbox.paypal.com';
const TOPIC = 'arn:aws:sns:us-east-1:123456789012:orders';
const WEBHOOK_ID = '1JE4291016473214C';

const ca = makeSigningCa('e2e');
const sns = { valid: ca.issue('sns.amazonaws.com'), expired: ca.issue('sns.amazonaws.com', { expiredDaysAgo: 3 }) };
const paypal = {
  valid: ca.issue('messageverificationcerts.sandbox.paypal.com'),
  expired: ca.issue('messageverificationcerts.sandbox.paypal.com', { expiredDaysAgo: 3 }),
};
const CERTS: Record<string, string> = {
  '/SimpleNotificationService-valid.pem': sns.valid.cert,
  '/SimpleNotificationService-expired.pem': sns.expired.cert,
  '/v1/notifications/certs/CERT-valid': paypal.valid.cert,
  '/v1/notifications/certs/CERT-expired': paypal.expired.cert,
};

let stack: Stack;
let fake: HttpsFake;
let gateway: RunningService;
let dir: string;
/** every request the provider hosts received: path and query */
const seen: string[] = [];
let snsEndpoint: string;
let paypalEndpoint: string;

beforeAll(async () => {
  const app = express();
  app.use((req, res) => {
    seen.push(req.originalUrl);
    if (req.query.Action === 'ConfirmSubscription')
      return void res.type('text/xml').send('<ConfirmSubscriptionResponse/>');
    const pem = CERTS[req.path];
    if (pem === undefined) return void res.status(404).send('no such certificate');
    res.type('application/x-pem-file').send(pem);
  });
  [stack, fake] = await Promise.all([
    startStack('certificate presets'),
    startHttpsFake('providers', [SNS_HOST, PAYPAL_HOST], app),
  ]);
  dir = mkdtempSync(path.join(tmpdir(), 'relay-provider-ca-'));
  writeFileSync(path.join(dir, 'ca.pem'), `${fake.ca}\n${ca.cert}\n`);
  gateway = await startService('ingest-gateway', {
    ...stack.env,
    HOST_ROUTES: fake.routes.join(','),
    NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem'),
  });
  const create = (body: object) => must(stack.client.POST('/v1/endpoints', { body: body as never }));
  [snsEndpoint, paypalEndpoint] = (
    await Promise.all([
      create({
        name: 'sns',
        payload_format: 'text',
        inbound_auth: { type: 'HMAC', preset: 'aws_sns', secrets: [TOPIC] },
      }),
      create({ name: 'paypal', inbound_auth: { type: 'HMAC', preset: 'paypal', secrets: [WEBHOOK_ID] } }),
    ])
  ).map((e) => e.id);
});

afterAll(async () => {
  await gateway?.stop();
  await fake?.close();
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const post = (endpointId: string, body: string, headers: Record<string, string>) =>
  fetch(`${gateway.url}/relay/${endpointId}`, { method: 'POST', headers, body });

/** The endpoint's AUTH_FAILED row whose reason contains `text` (a refused request answers no event id). */
const refusedRow = (endpointId: string, text: string) =>
  eventually(
    async () => {
      const { data } = await stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpointId } } });
      return data?.data.find((r) => r.outcome === 'AUTH_FAILED' && (r.reason ?? '').includes(text));
    },
    15000,
    `the row saying "${text}"`,
  );

const fetchesOf = (pathPrefix: string) => seen.filter((p) => p.startsWith(pathPrefix)).length;

describe('aws_sns', () => {
  const notification = (certPath: string, message = `hello ${randomUUID()}`) =>
    snsMessage(
      {
        Type: 'Notification',
        MessageId: randomUUID(),
        TopicArn: TOPIC,
        Message: message,
        Timestamp: new Date().toISOString(),
      },
      {
        key: certPath.includes('expired') ? sns.expired.key : sns.valid.key,
        certUrl: `https://${SNS_HOST}${certPath}`,
      },
    );
  const send = (body: string) => post(snsEndpoint, body, { 'content-type': 'text/plain; charset=UTF-8' });

  it('five notifications signed with a valid certificate are 202, and its host saw one fetch', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => send(notification('/SimpleNotificationService-valid.pem'))),
    );
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    expect(fetchesOf('/SimpleNotificationService-valid.pem')).toBe(1);
  });

  it('a tampered notification is 401 auth_failed', async () => {
    const body = notification('/SimpleNotificationService-valid.pem', 'pay 10').replace('pay 10', 'pay 99');
    const res = await send(body);
    expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([401, 'auth_failed']);
  });

  it('a SigningCertURL on another host is 401, and nothing is fetched', async () => {
    const before = seen.length;
    const body = snsMessage(
      {
        Type: 'Notification',
        MessageId: randomUUID(),
        TopicArn: TOPIC,
        Message: 'x',
        Timestamp: new Date().toISOString(),
      },
      { key: sns.valid.key, certUrl: `https://${PAYPAL_HOST}/SimpleNotificationService-valid.pem` },
    );
    expect((await send(body)).status).toBe(401);
    expect(seen.length).toBe(before);
  });

  it('a notification signed with an expired certificate is 401, its row saying so', async () => {
    expect((await send(notification('/SimpleNotificationService-expired.pem'))).status).toBe(401);
    await refusedRow(snsEndpoint, 'a certificate of the signing chain expired on');
  });

  it('a SubscriptionConfirmation: the gateway GETs the SubscribeURL once and answers 200', async () => {
    const token = randomUUID();
    const subscribeUrl = `https://${SNS_HOST}/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=${token}`;
    const fields: SnsFields = {
      Type: 'SubscriptionConfirmation',
      MessageId: randomUUID(),
      TopicArn: TOPIC,
      Token: token,
      Message: `You have chosen to subscribe to the topic ${TOPIC}.`,
      SubscribeURL: subscribeUrl,
      Timestamp: new Date().toISOString(),
    };
    const res = await send(
      snsMessage(fields, { key: sns.valid.key, certUrl: `https://${SNS_HOST}/SimpleNotificationService-valid.pem` }),
    );
    expect([res.status, await res.text()]).toEqual([200, 'confirmed']);
    expect(seen.filter((p) => p.includes(`Token=${token}`))).toHaveLength(1);
  });
});

describe('paypal', () => {
  const body = () => JSON.stringify({ id: `WH-${randomUUID()}`, event_type: 'PAYMENT.SALE.COMPLETED' });
  const send = (raw: string, certPath: string, key = paypal.valid.key, sent = raw) =>
    post(paypalEndpoint, sent, {
      'content-type': 'application/json',
      ...paypalHeaders(Buffer.from(raw), {
        key,
        certUrl: certPath.startsWith('https:') ? certPath : `https://${PAYPAL_HOST}${certPath}`,
        webhookId: WEBHOOK_ID,
        transmissionId: randomUUID(),
        at: new Date(),
      }),
    });

  it('five transmissions signed with a valid certificate are 202, and its host saw one fetch', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => send(body(), '/v1/notifications/certs/CERT-valid')),
    );
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    expect(fetchesOf('/v1/notifications/certs/CERT-valid')).toBe(1);
  });

  it('a tampered body is 401 auth_failed', async () => {
    const raw = body();
    const res = await send(raw, '/v1/notifications/certs/CERT-valid', paypal.valid.key, raw.replace('SALE', 'SALX'));
    expect(res.status).toBe(401);
  });

  it('a paypal-cert-url on another host is 401, and nothing is fetched', async () => {
    const before = seen.length;
    expect((await send(body(), `https://${SNS_HOST}/v1/notifications/certs/CERT-valid`)).status).toBe(401);
    expect(seen.length).toBe(before);
  });

  it('a transmission signed with an expired certificate is 401, its row saying so', async () => {
    expect((await send(body(), '/v1/notifications/certs/CERT-expired', paypal.expired.key)).status).toBe(401);
    await refusedRow(paypalEndpoint, 'a certificate of the signing chain expired on');
  });
});
