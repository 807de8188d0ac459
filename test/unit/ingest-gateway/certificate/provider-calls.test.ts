import type { LookupFunction } from 'node:net';
import { createSsrfAgents, sendRequest } from '@relay/targets';
import type { HttpRequest, SendOutcome } from '@relay/targets';
import { createProviderCalls } from '../../../../services/ingest-gateway/src/adapters/signing-certificates';
import { makeSigningCa } from '../../../support/mtls';
import { testLogger } from '../../../support/logger';

/**
 * The adapter behind the certificate step: certificates fetched once for many requests (kept,
 * and shared by concurrent requests), kept within a bound and no longer than their validity or
 * the maximum age; a failed fetch is not kept.
 */

const ca = makeSigningCa('calls');
const leaf = ca.issue('sns.amazonaws.com');
const URL_A = 'https://sns.us-east-1.amazonaws.com/a.pem';
const URL_B = 'https://sns.us-east-1.amazonaws.com/b.pem';

function fakeProvider(
  answer: (url: string) => SendOutcome = () => ({
    response: { status: 200, headers: {}, body: leaf.cert },
    durationMs: 1,
  }),
) {
  const fetched: string[] = [];
  let release: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  const send = async (req: HttpRequest): Promise<SendOutcome> => {
    fetched.push(req.url);
    await gate;
    return answer(req.url);
  };
  return {
    fetched,
    send,
    /** holds every fetch until released, so concurrent requests overlap */
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

const calls = (provider: ReturnType<typeof fakeProvider>, over: { maxEntries?: number; maxAgeMs?: number } = {}) =>
  createProviderCalls({
    send: provider.send,
    extraAnchors: ca.cert,
    maxEntries: over.maxEntries ?? 10,
    maxAgeMs: over.maxAgeMs ?? 3_600_000,
    logger: testLogger().logger,
  });

test('twenty concurrent requests naming one certificate share one fetch, and later ones use the kept copy', async () => {
  const provider = fakeProvider();
  const { certificates } = calls(provider);
  const now = new Date();
  provider.hold();
  const answers = Array.from({ length: 20 }, () => certificates.get(URL_A, 'aws_sns', now));
  provider.release();
  for (const answer of await Promise.all(answers)) expect(answer).toMatchObject({ ok: true });
  await certificates.get(URL_A, 'aws_sns', now);
  expect(provider.fetched).toEqual([URL_A]);
});

test('a kept certificate is fetched again after the maximum age', async () => {
  const provider = fakeProvider();
  const { certificates } = calls(provider, { maxAgeMs: 60_000 });
  const now = new Date();
  await certificates.get(URL_A, 'aws_sns', now);
  await certificates.get(URL_A, 'aws_sns', new Date(now.getTime() + 59_000));
  await certificates.get(URL_A, 'aws_sns', new Date(now.getTime() + 61_000));
  expect(provider.fetched).toEqual([URL_A, URL_A]);
});

test('a kept certificate is not used past its notAfter, even within the maximum age', async () => {
  const provider = fakeProvider();
  const { certificates } = calls(provider, { maxAgeMs: 10 * 86_400_000 });
  const now = new Date();
  const first = await certificates.get(URL_A, 'aws_sns', now);
  const notAfter = first.ok ? first.notAfter.getTime() : 0;
  const later = await certificates.get(URL_A, 'aws_sns', new Date(notAfter + 1000));
  expect(provider.fetched).toEqual([URL_A, URL_A]);
  expect(later).toMatchObject({ ok: false, untrusted: expect.stringContaining('expired on') });
});

test('the least recently used certificate leaves first when the bound is reached', async () => {
  const provider = fakeProvider();
  const { certificates } = calls(provider, { maxEntries: 1 });
  const now = new Date();
  await certificates.get(URL_A, 'aws_sns', now);
  await certificates.get(URL_B, 'aws_sns', now);
  await certificates.get(URL_A, 'aws_sns', now);
  expect(provider.fetched).toEqual([URL_A, URL_B, URL_A]);
});

test.each([
  ['a network failure', { error: { code: 'ETIMEDOUT', message: 'timed out' }, durationMs: 3000 }, 'ETIMEDOUT'],
  ['a 404', { response: { status: 404, headers: {}, body: 'no' }, durationMs: 1 }, 'HTTP 404'],
] as const)('%s makes the certificate unavailable, and is not kept', async (_what, outcome, unavailable) => {
  const provider = fakeProvider(() => outcome as SendOutcome);
  const { certificates } = calls(provider);
  const now = new Date();
  expect(await certificates.get(URL_A, 'aws_sns', now)).toEqual({ ok: false, unavailable });
  await certificates.get(URL_A, 'aws_sns', now);
  expect(provider.fetched).toEqual([URL_A, URL_A]);
});

test('a certificate without a trusted chain is refused (and kept refused)', async () => {
  const stranger = makeSigningCa('stranger').issue('sns.amazonaws.com');
  const provider = fakeProvider(() => ({ response: { status: 200, headers: {}, body: stranger.cert }, durationMs: 1 }));
  const { certificates } = calls(provider);
  const now = new Date();
  expect(await certificates.get(URL_A, 'aws_sns', now)).toEqual({
    ok: false,
    untrusted: 'the signing certificate does not chain to a trusted root',
  });
  await certificates.get(URL_A, 'aws_sns', now);
  expect(provider.fetched).toEqual([URL_A]);
});

test('a SubscribeURL answering 2xx confirms; another status says which', async () => {
  const answers = [200, 403];
  const provider = fakeProvider(() => ({
    response: { status: answers.shift()!, headers: {}, body: '' },
    durationMs: 1,
  }));
  const { subscriptions } = calls(provider);
  expect(await subscriptions.confirm('https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription')).toEqual({
    ok: true,
  });
  expect(await subscriptions.confirm('https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription')).toEqual({
    ok: false,
    problem: 'HTTP 403',
  });
});

test('a provider host that resolves to a blocked address is refused by the SSRF guard, before connecting', async () => {
  // DNS answers the cloud metadata address for the SNS host: the guard checks the resolved address
  const lookup: LookupFunction = (_host, opts, cb) =>
    opts.all ? cb(null, [{ address: '169.254.169.254', family: 4 }]) : cb(null, '169.254.169.254', 4);
  const agent = createSsrfAgents({ allowCidrs: [], lookup });
  const { certificates } = createProviderCalls({
    send: (req) => sendRequest(req, { timeoutMs: 2000, agent }),
    extraAnchors: ca.cert,
    maxEntries: 10,
    maxAgeMs: 60_000,
    logger: testLogger().logger,
  });
  expect(await certificates.get(URL_A, 'aws_sns', new Date())).toEqual({ ok: false, unavailable: 'SSRF_BLOCKED' });
  agent.http.destroy();
  agent.https.destroy();
});

test('certificates not kept are fetched at most the budget a minute per provider; past it the answer is unavailable, kept ones still answer', async () => {
  const provider = fakeProvider();
  const { certificates } = createProviderCalls({
    send: provider.send,
    extraAnchors: ca.cert,
    maxEntries: 100,
    maxAgeMs: 3_600_000,
    fetchesPerMinute: 3,
    logger: testLogger().logger,
  });
  // the start of this minute: within the test certificates' validity, and a whole minute to the next
  const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const url = (n: number) => `https://sns.us-east-1.amazonaws.com/made-up-${n}.pem`;
  for (let n = 0; n < 3; n++) expect(await certificates.get(url(n), 'aws_sns', now)).toMatchObject({ ok: true });
  expect(await certificates.get(url(3), 'aws_sns', now)).toEqual({
    ok: false,
    unavailable: 'more than 3 new aws_sns certificates or keys this minute',
  });
  // a kept one is answered without a fetch
  expect(await certificates.get(url(0), 'aws_sns', now)).toMatchObject({ ok: true });
  expect(provider.fetched).toHaveLength(3);
  // the next minute: fetched again
  expect(await certificates.get(url(3), 'aws_sns', new Date(now.getTime() + 60_000))).toMatchObject({ ok: true });
  expect(provider.fetched).toHaveLength(4);
});
