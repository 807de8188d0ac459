import { GIB, HugeResponseServer, MIB, residentBytes } from '../../support/huge-response';
import { TestReceiver } from '../../support/receiver';
import { MAX_RESPONSE_BODY_BYTES } from '../../../libs/targets/src/http/send';
import { attempt, delivery, saveConfig } from './fixtures';

/**
 * A destination's answer is read as a stream, never whole, and never
 * inflated; reading stops past MAX_RESPONSE_BODY_BYTES. Each destination here streams 1 GiB
 * (generated as the socket drains) from loopback; the process doing the send is this one, so
 * its RSS is sampled while the attempt runs.
 */
const RSS_BOUND = 64 * MIB;

async function withRssSampling<T>(run: () => Promise<T>): Promise<{ value: T; grewBy: number }> {
  if (global.gc) global.gc();
  const before = residentBytes().rss;
  let highest = before;
  const timer = setInterval(() => (highest = Math.max(highest, residentBytes().rss)), 20);
  try {
    const value = await run();
    highest = Math.max(highest, residentBytes().rss);
    return { value, grewBy: highest - before };
  } finally {
    clearInterval(timer);
  }
}

describe('responses are read with a size limit while streaming (docs/delivery.md "Responses too large")', () => {
  let server: HugeResponseServer;
  beforeAll(async () => {
    server = await HugeResponseServer.start();
  });
  afterAll(() => server.close());

  it.each([
    ['plain bytes, chunked', { encoding: 'identity' as const }],
    ['plain bytes with Content-Length: 1 GiB', { encoding: 'identity' as const, declareLength: true }],
    ['a gzip bomb (1 GiB inflated) labelled Content-Encoding: gzip', { encoding: 'gzip' as const }],
  ])(
    'a 2xx answer of 1 GiB (%s) is a recorded permanent failure, not "delivered 200", and RSS stays within 64 MB',
    async (_name, answer) => {
      server.answerWith({ status: 200, bytes: GIB, ...answer });
      const { value, grewBy } = await withRssSampling(() => attempt(saveConfig({ url: server.url() })));
      expect(value.sent).toMatchObject({
        error: {
          code: 'RESPONSE_TOO_LARGE',
          message: `HTTP 200 with a response body over ${MAX_RESPONSE_BODY_BYTES} bytes; reading stopped`,
        },
      });
      expect(value.result).toEqual({
        result: 'permanent',
        status: null,
        error: expect.stringMatching(/^RESPONSE_TOO_LARGE: HTTP 200/),
        flagTarget: false,
      });
      expect(grewBy).toBeLessThan(RSS_BOUND);
      // the sender hung up instead of draining: only what the socket buffers took was written
      expect(server.sent).toBeLessThan(64 * MIB);
    },
  );

  it('an error status with a 1 GiB body keeps its own classification (503 retries) from the first 4 KB', async () => {
    server.answerWith({ status: 503, bytes: GIB });
    const { value, grewBy } = await withRssSampling(() => attempt(saveConfig({ url: server.url() })));
    expect(value.result).toEqual({ result: 'retry', status: 503, error: 'HTTP 503' });
    expect('response' in value.sent && value.sent.response.body.length).toBe(4096);
    expect(grewBy).toBeLessThan(RSS_BOUND);
  });

  it('a 2xx answer of exactly the limit is a delivery', async () => {
    server.answerWith({ status: 200, bytes: MAX_RESPONSE_BODY_BYTES, declareLength: true });
    const { result } = await attempt(saveConfig({ url: server.url() }));
    expect(result).toEqual({ result: 'success', status: 200 });
  });
});

describe("responses are never compressed on Relay's behalf", () => {
  let receiver: TestReceiver;
  beforeAll(async () => {
    receiver = await TestReceiver.start();
  });
  afterAll(() => receiver.close());

  it('sends Accept-Encoding: identity even when a forwarded or custom header asks for gzip', async () => {
    const config = saveConfig({
      url: receiver.url(),
      forward_headers: { mode: 'all' },
      custom_headers: [{ name: 'Accept-Encoding', value: 'gzip, br' }],
    });
    await attempt(config, delivery({}, { 'accept-encoding': 'gzip, deflate, br' }));
    const [req] = await receiver.waitForRequests(1);
    expect(req?.headers['accept-encoding']).toBe('identity');
  });
});
