import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

let fx: ManagementFixture;
beforeAll(async () => {
  fx = await startManagement('mgmt-secrets');
});
afterAll(async () => {
  await fx?.close();
});

/** Each credential type, built from a list of secrets (or `{ keep }` placeholders) in its slots. */
const TYPES = [
  { type: 'BEARER', list: 'tokens', setting: (s: unknown[]) => ({ type: 'BEARER', tokens: s }), slots: (a: any): string[] => a.tokens },
  { type: 'API_KEY', list: 'keys', setting: (s: unknown[]) => ({ type: 'API_KEY', header: 'X-Api-Key', keys: s }), slots: (a: any): string[] => a.keys },
  { type: 'HMAC', list: 'secrets', setting: (s: unknown[]) => ({ type: 'HMAC', preset: 'github', secrets: s }), slots: (a: any): string[] => a.secrets },
  {
    type: 'BASIC',
    list: 'credentials',
    setting: (s: unknown[]) => ({ type: 'BASIC', credentials: s.map((password, i) => ({ username: `sender${i}`, password })) }),
    slots: (a: any): string[] => a.credentials.map((c: { password: string }) => c.password),
  },
] as const;

const secretOf = (type: string, n: string): string => `${type.toLowerCase()}-${n}-secret-value-${n}`;
const CAPTCHA_SECRET = '0x4AAAAAAA-captcha-secret-value';
const rawEndpoint = async (id: string): Promise<any> => fx.store.connection.db!.collection('endpoints').findOne({ _id: id as any });

describe.each(TYPES)('secrets at rest and in responses: $type', ({ type, list, setting, slots }) => {
  const plain = [secretOf(type, 'one'), secretOf(type, 'two')];

  it('the stored document holds only enc:v1: ciphertext that opens to the secrets; no response shows them', async () => {
    const responses = [];
    const created = await fx.api('post', '/v1/endpoints', { name: type, inbound_auth: setting(plain), captcha: { provider: 'turnstile', secret: CAPTCHA_SECRET } });
    expect(created.status).toBe(201);
    responses.push(created, await fx.api('get', `/v1/endpoints/${created.body.id}`), await fx.api('get', '/v1/endpoints'));
    responses.push(await fx.api('patch', `/v1/endpoints/${created.body.id}`, { name: 'renamed' }), await fx.api('post', `/v1/endpoints/${created.body.id}/pause`));

    const raw = await rawEndpoint(created.body.id);
    const stored = [...slots(raw.inbound_auth), raw.captcha.secret];
    for (const value of stored) expect(value).toMatch(/^enc:v1:k1:/);
    expect(stored.map((v) => fx.secrets.decrypt(v))).toEqual([...plain, CAPTCHA_SECRET]);
    const everything = [JSON.stringify(raw), ...responses.map((r) => JSON.stringify(r.body)), JSON.stringify(fx.logLines())].join('\n');
    for (const secret of [...plain, CAPTCHA_SECRET]) expect(everything).not.toContain(secret);
    expect(slots(created.body.inbound_auth)).toEqual(type === 'BASIC' ? [{ set: true }, { set: true }] : [{ set: true, last4: plain[0]!.slice(-4) }, { set: true, last4: plain[1]!.slice(-4) }]);
    expect(created.body.captcha.secret).toEqual({ set: true });
  });

  it('rotation in the spec order: accept old and new, then remove the old, never resending a stored secret', async () => {
    const [oldSecret, newSecret] = plain;
    const created = await fx.api('post', '/v1/endpoints', { name: 'rotate', inbound_auth: setting([oldSecret]) });
    const id = created.body.id as string;
    const opened = async () => slots((await rawEndpoint(id)).inbound_auth).map((v) => fx.secrets.decrypt(v));

    // 1. make the endpoint accept old and new credentials
    const both = await fx.api('patch', `/v1/endpoints/${id}`, { inbound_auth: setting([{ keep: 0 }, newSecret]) });
    expect(both.status).toBe(200);
    expect(slots(both.body.inbound_auth)).toHaveLength(2);
    expect(await opened()).toEqual([oldSecret, newSecret]);

    // an unrelated change leaves the sealed secrets untouched
    const before = slots((await rawEndpoint(id)).inbound_auth);
    await fx.api('patch', `/v1/endpoints/${id}`, { rate_limit_per_minute: 30 });
    expect(slots((await rawEndpoint(id)).inbound_auth)).toEqual(before);

    // 4. remove the old credential (slot 0), keeping the new one (slot 1)
    const onlyNew = await fx.api('patch', `/v1/endpoints/${id}`, { inbound_auth: setting([{ keep: 1 }]) });
    expect(onlyNew.status).toBe(200);
    expect(await opened()).toEqual([newSecret]);
  });

  it('refuses a third secret, a slot kept twice, a slot that is not stored and an echoed redacted value', async () => {
    const created = await fx.api('post', '/v1/endpoints', { name: 'refuse', inbound_auth: setting(plain) });
    const id = created.body.id as string;
    const base = `inbound_auth.${type.toLowerCase()}.${list}`;
    const slot0 = type === 'BASIC' ? `${base}[0].password` : `${base}[0]`;
    const cases: Array<[unknown[], string]> = [
      [[{ keep: 0 }, { keep: 1 }, secretOf(type, 'three')], base],
      [[{ keep: 2 }], slot0],
      [[slots(created.body.inbound_auth)[0]], slot0], // the redacted { set, last4 } sent back
    ];
    if (type !== 'BASIC') cases.push([[{ keep: 0 }, { keep: 0 }], base]);
    for (const [secrets, field] of cases) {
      const res = await fx.api('patch', `/v1/endpoints/${id}`, { inbound_auth: setting(secrets) });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(JSON.stringify(res.body)).not.toContain(plain[0]);
    }
    expect((await fx.api('get', `/v1/endpoints/${id}`)).body.revision).toBe(1);
  });
});

describe('captcha secret', () => {
  it('is kept with { "keep": 0 } while other captcha settings change', async () => {
    const created = await fx.api('post', '/v1/endpoints', { name: 'c', captcha: { provider: 'hcaptcha', secret: CAPTCHA_SECRET } });
    const res = await fx.api('patch', `/v1/endpoints/${created.body.id}`, { captcha: { provider: 'hcaptcha', secret: { keep: 0 }, field: 'token' } });
    expect(res.status).toBe(200);
    expect(res.body.captcha).toEqual({ provider: 'hcaptcha', secret: { set: true }, field: 'token', verify_url: 'https://api.hcaptcha.com/siteverify' });
    expect(fx.secrets.decrypt((await rawEndpoint(created.body.id)).captcha.secret)).toBe(CAPTCHA_SECRET);
  });

  it('cannot be kept across providers', async () => {
    const created = await fx.api('post', '/v1/endpoints', { name: 'c', captcha: { provider: 'hcaptcha', secret: CAPTCHA_SECRET } });
    const res = await fx.api('patch', `/v1/endpoints/${created.body.id}`, { captcha: { provider: 'recaptcha', secret: { keep: 0 } } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'captcha.secret' })]);
  });
});

it('a validation error never echoes a submitted secret', async () => {
  const secret = 'super-secret-key-value-0001';
  const res = await fx.api('post', '/v1/endpoints', { name: 'x', inbound_auth: { type: 'API_KEY', header: 'Host', keys: [secret, secret] }, captcha: { provider: 'x', secret } });
  expect(res.status).toBe(400);
  expect(JSON.stringify(res.body)).not.toContain(secret);
  expect(JSON.stringify(fx.logLines())).not.toContain(secret);
});
