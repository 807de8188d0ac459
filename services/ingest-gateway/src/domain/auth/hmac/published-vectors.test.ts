import type { InboundAuthSetting } from '@relay/endpoints';
import { verifyInbound } from '../verify';

/**
 * Test vectors the providers publish in their documentation, verified byte for byte: a check
 * on the preset descriptions that owes nothing to Relay's code or to a signer written here.
 */
const request = (headers: Record<string, string>, body: string) => ({
  method: 'POST',
  url: 'https://relay.example/relay/ep_1',
  headers,
  rawBody: Buffer.from(body),
});

test.each([
  {
    source: 'GitHub docs, "Testing the webhook payload validation"',
    setting: { type: 'HMAC', preset: 'github', secrets: ["It's a Secret to Everybody"] },
    req: request(
      { 'x-hub-signature-256': 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17' },
      'Hello, World!',
    ),
    at: new Date(),
  },
  {
    source: 'Svix docs, "Verifying webhooks manually" (svix-* headers)',
    setting: { type: 'HMAC', preset: 'svix', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] },
    req: request(
      {
        'svix-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'svix-timestamp': '1614265330',
        'svix-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      },
      '{"test": 2432232314}',
    ),
    at: new Date(1614265330 * 1000),
  },
  {
    source: "Standard Webhooks reference libraries' example (webhook-* headers)",
    setting: { type: 'HMAC', preset: 'standard_webhooks', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] },
    req: request(
      {
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': '1614265330',
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      },
      '{"test": 2432232314}',
    ),
    at: new Date(1614265330 * 1000),
  },
])('$source verifies, and fails with its body changed', ({ setting, req, at }) => {
  expect(verifyInbound(setting as InboundAuthSetting, req, at)).toEqual({ ok: true });
  expect(
    verifyInbound(setting as InboundAuthSetting, { ...req, rawBody: Buffer.from(`${req.rawBody.toString()} `) }, at),
  ).toEqual({ ok: false, reason: 'signature mismatch' });
});
