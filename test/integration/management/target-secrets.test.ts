import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/**
 * Spec "Relay target": a credential-like custom header is stored encrypted and never shown
 * again after saving; so are the outbound auth credentials and the signing secret.
 */
let m: ManagementFixture;
let endpointId: string;

beforeAll(async () => {
  m = await startManagement('target-secrets');
  endpointId = (await m.api('post', '/v1/endpoints', { name: 'with secrets' })).body.id;
});
afterAll(() => m.close());

const SECRETS = {
  header: 'sk_live_header_value_1234567890',
  token: 'bearer-token-abcdefghijklmnop',
  signing: `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`,
};

describe('webhook target secrets at rest', () => {
  it('the raw MongoDB document of a target shows ciphertext, not the sensitive header value; the API never returns them', async () => {
    const created = await m.api('post', `/v1/endpoints/${endpointId}/targets`, {
      kind: 'webhook',
      name: 'billing',
      config: {
        url: 'https://hooks.example.com/relay',
        auth: { type: 'bearer', token: SECRETS.token },
        custom_headers: [
          { name: 'X-Api-Secret', value: SECRETS.header },
          { name: 'X-Origin', value: '{{originating_ip}}' },
        ],
        signing: { standard_webhooks: true, secret: SECRETS.signing },
      },
    });
    expect(created.status).toBe(201);

    const raw = await m.store.targets.collection.findOne({ _id: created.body.id } as never);
    const stored = JSON.stringify(raw);
    for (const secret of Object.values(SECRETS)) expect(stored).not.toContain(secret);
    expect(stored).toMatch(/enc:v1:k1:/);
    expect(stored).toContain('{{originating_ip}}'); // a header that is not credential-like stays readable

    for (const body of [created.body, (await m.api('get', `/v1/endpoints/${endpointId}/targets`)).body]) {
      const text = JSON.stringify(body);
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
      expect(text).not.toContain('enc:v1'); // not even the ciphertext is shown
    }
    for (const line of m.logLines()) for (const secret of Object.values(SECRETS)) expect(JSON.stringify(line)).not.toContain(secret);
  });
});
