import { must } from '@relay/client';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/**
 * Inbound auth presets through the management API on the real store: the new HMAC settings (Meta's
 * verify_token, dedup, a custom id JSON path) pass the OpenAPI document and the settings
 * validators; verify_token is stored encrypted and never shown.
 */
let fx: ManagementFixture;
beforeAll(async () => {
  fx = await startManagement('mgmt-presets');
});
afterAll(async () => {
  await fx?.close();
});

const VERIFY_TOKEN = 'meta-verify-token-value-1234';

describe('inbound auth preset settings', () => {
  it('a WhatsApp preset with verify_token and dedup: stored encrypted, shown redacted', async () => {
    const created = await must(
      fx.client.POST('/v1/endpoints', {
        body: {
          name: 'wa',
          inbound_auth: {
            type: 'HMAC',
            preset: 'whatsapp',
            secrets: ['meta-app-secret-value-1'],
            verify_token: VERIFY_TOKEN,
            dedup: { enabled: false },
          },
        },
      }),
    );
    expect(created.inbound_auth).toMatchObject({
      preset: 'whatsapp',
      verify_token: { set: true, last4: '1234' },
      dedup: { enabled: false },
    });
    const raw: any = await fx.store.connection
      .db!.collection<{ _id: string }>('endpoints')
      .findOne({ _id: created.id });
    expect(raw.inbound_auth.verify_token).toMatch(/^enc:v1:k1:/);
    expect(fx.secrets.decrypt(raw.inbound_auth.verify_token)).toBe(VERIFY_TOKEN);
    expect(JSON.stringify(created)).not.toContain(VERIFY_TOKEN);
  });

  it('a custom scheme with dedup on an id JSON path, and a dedup window', async () => {
    const custom = {
      algorithm: 'sha256',
      header: 'X-Signature',
      encoding: 'hex',
      template: '{{body}}',
      id_json_path: 'data.id',
    };
    // raw: a custom scheme's config written as a sender would send it (plain strings, not the document's enums)
    const created = await fx.api('post', '/v1/endpoints', {
      name: 'c',
      inbound_auth: {
        type: 'HMAC',
        preset: 'custom',
        secrets: ['custom-secret-value'],
        custom,
        dedup: { enabled: true, window_seconds: 3600 },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.inbound_auth).toMatchObject({
      custom: { id_json_path: 'data.id' },
      dedup: { enabled: true, window_seconds: 3600 },
    });
  });

  it.each([
    [
      'verify_token on a preset without the Meta handshake',
      { type: 'HMAC', preset: 'github', secrets: ['s-value'], verify_token: 'x' },
      'inbound_auth.hmac.verify_token',
    ],
    [
      'dedup on a preset whose provider sends no id',
      { type: 'HMAC', preset: 'zoom', secrets: ['s-value'], dedup: { enabled: true } },
      'inbound_auth.hmac.dedup.enabled',
    ],
    [
      'a dedup window under a minute',
      { type: 'HMAC', preset: 'github', secrets: ['s-value'], dedup: { window_seconds: 5 } },
      'inbound_auth.hmac.dedup.window_seconds',
    ],
  ])('refuses %s with a 400 naming the field', async (_name, inbound_auth, field) => {
    // raw: settings the document refuses, for the 400 naming the field
    const res = await fx.api('post', '/v1/endpoints', { name: 'bad', inbound_auth });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
  });
});
