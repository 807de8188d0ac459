import { errorOf, must } from '@relay/client';
import type { InboundAuthInput, Schemas } from '@relay/client';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

let fx: ManagementFixture;
beforeAll(async () => {
  fx = await startManagement('mgmt-secrets');
});
afterAll(async () => {
  await fx?.close();
});

/** a secret's slot in a request: the secret, or `{ keep: n }` for the one stored in slot n */
type Slot = string | Schemas['KeepSecret'];

/** Each credential type, built from a list of secrets (or `{ keep }` placeholders) in its slots. */
const TYPES: ReadonlyArray<{
  type: string;
  list: string;
  setting: (s: Slot[]) => InboundAuthInput;
  slots: (a: any) => string[];
}> = [
  {
    type: 'BEARER',
    list: 'tokens',
    setting: (s) => ({ type: 'BEARER', tokens: s }),
    slots: (a: any): string[] => a.tokens,
  },
  {
    type: 'API_KEY',
    list: 'keys',
    setting: (s) => ({ type: 'API_KEY', header: 'X-Api-Key', keys: s }),
    slots: (a: any): string[] => a.keys,
  },
  {
    type: 'HMAC',
    list: 'secrets',
    setting: (s) => ({ type: 'HMAC', preset: 'github', secrets: s }),
    slots: (a: any): string[] => a.secrets,
  },
  {
    type: 'BASIC',
    list: 'credentials',
    setting: (s) => ({ type: 'BASIC', credentials: s.map((password, i) => ({ username: `sender${i}`, password })) }),
    slots: (a: any): string[] => a.credentials.map((c: { password: string }) => c.password),
  },
];

const secretOf = (type: string, n: string): string => `${type.toLowerCase()}-${n}-secret-value-${n}`;
const CAPTCHA_SECRET = '0x4AAAAAAA-captcha-secret-value';
const path = (endpointId: string) => ({ params: { path: { endpointId } } });
const patch = (endpointId: string, body: Schemas['EndpointPatch']) =>
  fx.client.PATCH('/v1/endpoints/{endpointId}', { ...path(endpointId), body });
const rawEndpoint = async (id: string): Promise<any> =>
  fx.store.connection.db!.collection('endpoints').findOne({ _id: id as any });

describe.each(TYPES)('secrets at rest and in responses: $type', ({ type, list, setting, slots }) => {
  const plain = [secretOf(type, 'one'), secretOf(type, 'two')];

  it('the stored document holds only enc:v1: ciphertext that opens to the secrets; no response shows them', async () => {
    const created = await must(
      fx.client.POST('/v1/endpoints', {
        body: { name: type, inbound_auth: setting(plain), captcha: { provider: 'turnstile', secret: CAPTCHA_SECRET } },
      }),
    );
    const responses: unknown[] = [
      created,
      await must(fx.client.GET('/v1/endpoints/{endpointId}', path(created.id))),
      await must(fx.client.GET('/v1/endpoints')),
    ];
    responses.push(
      await must(patch(created.id, { name: 'renamed' })),
      await must(fx.client.POST('/v1/endpoints/{endpointId}/pause', path(created.id))),
    );

    const raw = await rawEndpoint(created.id);
    const stored = [...slots(raw.inbound_auth), raw.captcha.secret];
    for (const value of stored) expect(value).toMatch(/^enc:v1:k1:/);
    expect(stored.map((v) => fx.secrets.decrypt(v))).toEqual([...plain, CAPTCHA_SECRET]);
    const everything = [
      JSON.stringify(raw),
      ...responses.map((r) => JSON.stringify(r)),
      JSON.stringify(fx.logLines()),
    ].join('\n');
    for (const secret of [...plain, CAPTCHA_SECRET]) expect(everything).not.toContain(secret);
    expect(slots(created.inbound_auth)).toEqual(
      type === 'BASIC'
        ? [{ set: true }, { set: true }]
        : [
            { set: true, last4: plain[0]!.slice(-4) },
            { set: true, last4: plain[1]!.slice(-4) },
          ],
    );
    expect(created.captcha?.secret).toEqual({ set: true });
  });

  it('rotation in the spec order: accept old and new, then remove the old, never resending a stored secret', async () => {
    const [oldSecret, newSecret] = plain;
    const { id } = await must(
      fx.client.POST('/v1/endpoints', { body: { name: 'rotate', inbound_auth: setting([oldSecret!]) } }),
    );
    const opened = async () => slots((await rawEndpoint(id)).inbound_auth).map((v) => fx.secrets.decrypt(v));

    // 1. make the endpoint accept old and new credentials
    const both = await must(patch(id, { inbound_auth: setting([{ keep: 0 }, newSecret!]) }));
    expect(slots(both.inbound_auth)).toHaveLength(2);
    expect(await opened()).toEqual([oldSecret, newSecret]);

    // an unrelated change leaves the sealed secrets untouched
    const before = slots((await rawEndpoint(id)).inbound_auth);
    await must(patch(id, { rate_limit_per_minute: 30 }));
    expect(slots((await rawEndpoint(id)).inbound_auth)).toEqual(before);

    // 4. remove the old credential (slot 0), keeping the new one (slot 1)
    await must(patch(id, { inbound_auth: setting([{ keep: 1 }]) }));
    expect(await opened()).toEqual([newSecret]);
  });

  it('refuses a third secret, a slot kept twice, a slot that is not stored and an echoed redacted value', async () => {
    const created = await must(
      fx.client.POST('/v1/endpoints', { body: { name: 'refuse', inbound_auth: setting(plain) } }),
    );
    const id = created.id;
    const base = `inbound_auth.${type.toLowerCase()}.${list}`;
    const slot0 = type === 'BASIC' ? `${base}[0].password` : `${base}[0]`;
    const cases: Array<[Slot[], string]> = [
      [[{ keep: 0 }, { keep: 1 }, secretOf(type, 'three')], base],
      [[{ keep: 2 }], slot0],
    ];
    if (type !== 'BASIC') cases.push([[{ keep: 0 }, { keep: 0 }], base]);
    for (const [secrets, field] of cases) {
      const res = await patch(id, { inbound_auth: setting(secrets) });
      const refused = errorOf(res.response, res.error);
      expect(refused.status).toBe(400);
      expect(refused.errors.map((e) => e.field)).toContain(field);
      expect(JSON.stringify(res.error)).not.toContain(plain[0]);
    }
    const redacted = JSON.stringify(setting(['REDACTED'])).replace(
      '"REDACTED"',
      JSON.stringify(slots(created.inbound_auth)[0]),
    );
    // raw: the redacted { set, last4 } of the answer sent back as a secret, a body the request type refuses
    const echoed = await fx.api('patch', `/v1/endpoints/${id}`, { inbound_auth: JSON.parse(redacted) });
    expect(echoed.status).toBe(400);
    expect(echoed.body.errors.map((e: { field: string }) => e.field)).toContain(slot0);
    expect(JSON.stringify(echoed.body)).not.toContain(plain[0]);
    expect((await must(fx.client.GET('/v1/endpoints/{endpointId}', path(id)))).revision).toBe(1);
  });
});

describe('captcha secret', () => {
  it('is kept with { "keep": 0 } while other captcha settings change', async () => {
    const created = await must(
      fx.client.POST('/v1/endpoints', {
        body: { name: 'c', captcha: { provider: 'hcaptcha', secret: CAPTCHA_SECRET } },
      }),
    );
    const res = await must(
      patch(created.id, { captcha: { provider: 'hcaptcha', secret: { keep: 0 }, field: 'token' } }),
    );
    expect(res.captcha).toEqual({
      provider: 'hcaptcha',
      secret: { set: true },
      field: 'token',
      verify_url: 'https://api.hcaptcha.com/siteverify',
    });
    expect(fx.secrets.decrypt((await rawEndpoint(created.id)).captcha.secret)).toBe(CAPTCHA_SECRET);
  });

  it('cannot be kept across providers', async () => {
    const created = await must(
      fx.client.POST('/v1/endpoints', {
        body: { name: 'c', captcha: { provider: 'hcaptcha', secret: CAPTCHA_SECRET } },
      }),
    );
    const res = await patch(created.id, { captcha: { provider: 'recaptcha', secret: { keep: 0 } } });
    expect(res.response.status).toBe(400);
    expect(errorOf(res.response, res.error).errors).toEqual([expect.objectContaining({ field: 'captcha.secret' })]);
  });
});

it('a validation error never echoes a submitted secret', async () => {
  const secret = 'super-secret-key-value-0001';
  // raw: an unknown captcha provider, a value the request type refuses
  const res = await fx.api('post', '/v1/endpoints', {
    name: 'x',
    inbound_auth: { type: 'API_KEY', header: 'Host', keys: [secret, secret] },
    captcha: { provider: 'x', secret },
  });
  expect(res.status).toBe(400);
  expect(JSON.stringify(res.body)).not.toContain(secret);
  expect(JSON.stringify(fx.logLines())).not.toContain(secret);
});
