import { validateInboundAuth } from './validate';

/** The dedup setting on HMAC inbound auth, validated at save time. */
const CUSTOM = { algorithm: 'sha256', header: 'X-Sig', encoding: 'hex', template: '{{body}}' };

describe('dedup settings', () => {
  it.each([
    [
      'a preset with an id, window set',
      { type: 'HMAC', preset: 'github', secrets: ['s'], dedup: { window_seconds: 3600 } },
    ],
    ['turned off', { type: 'HMAC', preset: 'stripe', secrets: ['s'], dedup: { enabled: false } }],
    [
      'custom with an id JSON path',
      {
        type: 'HMAC',
        preset: 'custom',
        secrets: ['s'],
        custom: { ...CUSTOM, id_json_path: 'data.id' },
        dedup: { enabled: true },
      },
    ],
    [
      'custom with an id header',
      {
        type: 'HMAC',
        preset: 'custom',
        secrets: ['s'],
        custom: { ...CUSTOM, id_header: 'X-Delivery' },
        dedup: { enabled: true },
      },
    ],
  ])('accepts %s', (_name, input) => {
    expect(validateInboundAuth(input)).toEqual({ ok: true, value: input });
  });

  it.each([
    [
      'a window under a minute',
      { type: 'HMAC', preset: 'github', secrets: ['s'], dedup: { window_seconds: 59 } },
      'inbound_auth.hmac.dedup.window_seconds',
    ],
    [
      'a window over seven days',
      { type: 'HMAC', preset: 'github', secrets: ['s'], dedup: { window_seconds: 604_801 } },
      'inbound_auth.hmac.dedup.window_seconds',
    ],
    [
      'enabled on a preset whose provider sends no id',
      { type: 'HMAC', preset: 'zoom', secrets: ['s'], dedup: { enabled: true } },
      'inbound_auth.hmac.dedup.enabled',
    ],
    [
      'enabled on custom without id_header or id_json_path',
      { type: 'HMAC', preset: 'custom', secrets: ['s'], custom: CUSTOM, dedup: { enabled: true } },
      'inbound_auth.hmac.dedup.enabled',
    ],
    [
      'an id JSON path that is not a dotted path of names',
      { type: 'HMAC', preset: 'custom', secrets: ['s'], custom: { ...CUSTOM, id_json_path: 'data[0].id' } },
      'inbound_auth.hmac.custom.id_json_path',
    ],
    [
      'an unknown dedup field',
      { type: 'HMAC', preset: 'github', secrets: ['s'], dedup: { ttl: 5 } },
      'inbound_auth.hmac.dedup.ttl',
    ],
  ])('refuses %s', (_name, input, field) => {
    const result = validateInboundAuth(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.field)).toContain(field);
  });
});
