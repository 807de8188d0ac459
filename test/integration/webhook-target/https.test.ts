import { TestReceiver } from '../../support/receiver';
import { attempt, delivery, kind, saveConfig } from './fixtures';
import type { WebhookConfig } from '../../../libs/targets/src/kinds/webhook';

describe('webhook target over HTTPS (spec "Outbound": certificates always verified)', () => {
  let receiver: TestReceiver;
  beforeAll(async () => {
    receiver = await TestReceiver.startHttps();
  });
  afterAll(() => receiver.close());

  it.each([true, false])(
    'a self-signed HTTPS receiver is refused (Enforce HTTPS %s) and nothing is delivered',
    async (enforce) => {
      const { sent, result } = await attempt(saveConfig({ url: receiver.url(), enforce_https: enforce }));
      expect('error' in sent && sent.error.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(result).toMatchObject({ result: 'permanent', flagTarget: true });
      expect(receiver.requests).toHaveLength(0);
    },
  );

  it('Enforce HTTPS: an http:// URL is refused at save time', () => {
    const r = kind.validateConfig({ url: 'http://127.0.0.1:9/hook', enforce_https: true });
    expect(r).toEqual({
      ok: false,
      errors: [{ field: 'config.url', message: 'url must use https while Enforce HTTPS is on' }],
    });
  });

  it('Enforce HTTPS: a stored http:// URL is refused again at delivery time, before any request', async () => {
    const plain = await TestReceiver.start();
    try {
      const tampered: WebhookConfig = { ...saveConfig({ url: plain.url() }), enforce_https: true };
      expect(() => kind.buildRequest(tampered, delivery())).toThrow(
        expect.objectContaining({ code: 'HTTPS_REQUIRED' }),
      );
      expect(plain.requests).toHaveLength(0);
    } finally {
      await plain.close();
    }
  });
});
