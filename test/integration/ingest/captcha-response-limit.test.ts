import { GIB, HugeResponseServer, MIB, residentBytes } from '../../support/huge-response';
import { IngestHarness } from './harness';
import type { GatewayInstance } from './harness';
import { send } from './http';

/**
 * The gateway's side: the captcha check calls the endpoint's `verify_url`
 * through the same sender as deliveries, so a verify URL answering 1 GiB (plain or a gzip
 * bomb) is read only up to the sender's limit and never inflated. The gateway app runs in this
 * process, so this process's RSS is the one sampled. The captcha fails closed: 503
 * endpoint_unavailable with a CAPTCHA_FAILED row, as for any verifier outage.
 */
let h: IngestHarness;
let gw: GatewayInstance;
let account: string;
let verifier: HugeResponseServer;

beforeAll(async () => {
  h = await IngestHarness.start('captcha-limit');
  gw = await h.gateway();
  account = await h.account();
  verifier = await HugeResponseServer.start();
});

afterAll(async () => {
  await h?.stop();
  await verifier?.close();
});

it.each([
  ['plain bytes', 'identity' as const],
  ['a gzip bomb labelled Content-Encoding: gzip', 'gzip' as const],
])(
  'a captcha verify URL streaming 1 GiB (%s) leaves RSS within 64 MB and fails closed with a clear reason',
  async (_name, encoding) => {
    verifier.answerWith({ status: 200, bytes: GIB, encoding });
    const id = await h.endpoint(account, {
      captcha: { provider: 'hcaptcha', secret: h.seal('s'), verify_url: verifier.url('/siteverify') },
    });
    const before = residentBytes().rss;
    let highest = before;
    const timer = setInterval(() => (highest = Math.max(highest, residentBytes().rss)), 20);
    try {
      const res = await send(gw, id, { body: '{"h-captcha-response":"t"}' });
      expect([res.status, res.json.code]).toEqual([503, 'endpoint_unavailable']);
    } finally {
      clearInterval(timer);
    }
    expect(Math.max(highest, residentBytes().rss) - before).toBeLessThan(64 * MIB);
    expect(verifier.sent).toBeLessThan(64 * MIB);
    expect((await h.waitForRows(id, 1))[0]).toMatchObject({
      outcome: 'CAPTCHA_FAILED',
      reason: expect.stringMatching(/unavailable/),
    });
    expect(
      gw
        .logs()
        .filter((l) => l.message === 'captcha verifier unavailable')
        .at(-1),
    ).toMatchObject({ problem: 'RESPONSE_TOO_LARGE' });
  },
);
