import { redactInboundAuth, secretPaths } from './secrets';
import { validateInboundAuth } from './validate';

/** Meta's `hub.verify_token` is part of the HMAC setting, only for the Meta presets, and a secret. */
describe('verify_token', () => {
  const meta = { type: 'HMAC', preset: 'whatsapp', secrets: ['app-secret'], verify_token: 'my-verify-token-123' };

  it.each(['facebook', 'instagram', 'whatsapp'])('is accepted on the %s preset', (preset) => {
    expect(validateInboundAuth({ ...meta, preset })).toMatchObject({ ok: true });
  });

  it("is refused on a preset without Meta's handshake", () => {
    expect(validateInboundAuth({ ...meta, preset: 'github' })).toEqual({
      ok: false,
      errors: [
        {
          field: 'inbound_auth.hmac.verify_token',
          message: "only applies to presets with Meta's or eBay's endpoint handshake, not GitHub",
        },
      ],
    });
  });

  it('is a secret: listed among the secret paths and redacted in API responses', () => {
    const checked = validateInboundAuth(meta);
    if (!checked.ok) throw new Error('rejected');
    expect(secretPaths(checked.value)).toEqual(['secrets[0]', 'verify_token']);
    expect(redactInboundAuth(checked.value)).toMatchObject({ verify_token: { set: true, last4: '-123' } });
  });
});
