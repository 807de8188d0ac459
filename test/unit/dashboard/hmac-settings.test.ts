import {
  presetChoices,
  presetSummary,
  takesVerifyToken,
} from '../../../services/management-api/dashboard/src/lib/presets';
import { draftOf, settingsBody } from '../../../services/management-api/dashboard/src/lib/settings';

/** Inbound auth presets in the dashboard's settings: the preset picker's data, dedup and Meta's verify_token. */
const endpoint = (inbound_auth: object) => ({
  id: 'ep_1',
  name: 'orders',
  ingest_url: 'https://relay.example/relay/ep_1',
  methods: ['POST'],
  payload_format: 'json',
  query_param_name: null,
  query_param_required: true,
  inbound_auth,
  required_headers: [],
  body_filters: [],
  field_rules: [],
  ip_access: { allow: [], deny: [] },
  captcha: null,
  rate_limit_per_minute: null,
});

describe('HMAC settings in the dashboard', () => {
  it('keeps a stored dedup setting and sends a changed one', () => {
    const draft = draftOf(
      endpoint({
        type: 'HMAC',
        preset: 'github',
        secrets: [{ set: true }],
        dedup: { enabled: false, window_seconds: 600 },
      }),
    );
    expect([draft.auth.dedup, draft.auth.dedupWindow]).toEqual(['off', '600']);
    draft.auth = { ...draft.auth, touched: true, dedup: 'on' };
    expect(settingsBody(draft).inbound_auth).toEqual({
      type: 'HMAC',
      preset: 'github',
      secrets: [{ keep: 0 }],
      dedup: { enabled: true, window_seconds: 600 },
    });
  });

  it('sends a verify_token only when one is typed; the stored one is only known to exist', () => {
    const draft = draftOf(
      endpoint({
        type: 'HMAC',
        preset: 'whatsapp',
        secrets: [{ set: true }],
        verify_token: { set: true, last4: 'abcd' },
      }),
    );
    expect([draft.auth.verifyToken, draft.auth.verifyTokenStored]).toEqual(['', true]);
    draft.auth = { ...draft.auth, touched: true, verifyToken: 'new-verify-token' };
    expect(settingsBody(draft).inbound_auth).toMatchObject({ verify_token: 'new-verify-token' });
    expect([takesVerifyToken('whatsapp'), takesVerifyToken('github')]).toEqual([true, false]);
  });

  it('the picker finds providers by label or name, keeps the current one, and says where the secret is', () => {
    expect(presetChoices('stri', 'github').map((c) => c.name)).toEqual(['github', 'stripe']);
    expect(presetChoices('', 'github').length).toBeGreaterThan(120);
    expect(presetSummary('stripe')).toMatchObject({
      where: expect.stringContaining('Signing secret'),
      docs: expect.stringMatching(/^https:\/\/docs\.stripe\.com\//),
    });
    expect(presetSummary('custom')).toBeNull();
  });

  it('a certificate-signed preset says the body is signed with a published certificate, and where its ARN is', () => {
    expect(presetSummary('aws_sns')).toMatchObject({
      sends: "AWS SNS signs the body with a certificate it publishes and its delivery id in the body's MessageId.",
      where: expect.stringContaining('ARN'),
    });
  });
});
