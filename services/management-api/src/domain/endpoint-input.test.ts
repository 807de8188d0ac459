import { settingDefaults } from './endpoint-settings';
import { validateEndpointInput } from './endpoint-input';
import { checkCombination, mergeSettings } from './settings-combination';
import type { EndpointSettings } from './endpoint-settings';

const fieldsOf = (r: ReturnType<typeof validateEndpointInput>): string[] =>
  r.ok ? [] : r.errors.map((e) => e.field).sort();

describe('endpoint settings validation', () => {
  it('a create needs only a name; the defaults are POST, JSON, enabled, not paused, inbound auth NONE', () => {
    const sent = validateEndpointInput({ name: ' orders ' }, 'create', null);
    expect(sent).toEqual({ ok: true, value: { name: 'orders' } });
    expect(mergeSettings(null, { name: 'orders' }).merged).toEqual({ name: 'orders', ...settingDefaults() });
  });

  it('names every offending field at once, unknown and read-only fields included', () => {
    const r = validateEndpointInput(
      { name: '', methods: ['FETCH'], payload_format: 'yaml', enabled: 'yes', colour: 'red', revision: 3 },
      'create',
      null,
    );
    expect(fieldsOf(r)).toEqual(['colour', 'enabled', 'methods', 'name', 'payload_format', 'revision']);
  });

  it('uses the lib validators and their field paths', () => {
    const r = validateEndpointInput(
      {
        inbound_auth: { type: 'API_KEY', header: 'Content-Type', keys: ['k'] },
        body_filters: [
          { kind: 'contains', value: 'a' },
          { kind: 'regex', pattern: '(?=x)' },
        ],
        maintenance_windows: [{ starts_at: '2030-01-01T10:00:00Z', ends_at: '2030-01-01T09:00:00Z' }],
        ip_access: { deny: ['10.0.0.0/33'] },
        rate_limit_per_minute: 0,
      },
      'update',
      null,
    );
    expect(fieldsOf(r)).toEqual([
      'body_filters[1].pattern',
      'inbound_auth.api_key.header',
      'ip_access.deny[0]',
      'maintenance_windows[0].ends_at',
      'rate_limit_per_minute',
    ]);
  });

  it('null clears captcha and rate limit; a missing IP list means empty', () => {
    expect(
      validateEndpointInput(
        { captcha: null, rate_limit_per_minute: null, ip_access: { allow: ['::1'] } },
        'update',
        null,
      ),
    ).toEqual({
      ok: true,
      value: { captcha: null, rate_limit_per_minute: null, ip_access: { allow: ['::1'], deny: [] } },
    });
  });
});

describe('rules across settings, on the merged settings', () => {
  const current = (over: Partial<EndpointSettings> = {}): EndpointSettings => ({
    name: 'e',
    ...settingDefaults(),
    ...over,
  });
  const check = (base: EndpointSettings, sent: Partial<EndpointSettings>) => {
    const { merged } = mergeSettings(base, sent);
    return checkCombination(merged, sent).map((e) => e.field);
  };

  it.each([
    ['GET', 'json', false],
    ['HEAD', 'xml', false],
    ['GET', 'none', true],
    ['GET', 'query', true],
    ['HEAD', 'query_base64_json', true],
    ['PUT', 'query', true],
  ] as const)(
    'Ingest: GET and HEAD only with None and the query formats (%s with %s → ok=%s)',
    (method, format, ok) => {
      const sent = {
        methods: [method],
        payload_format: format,
        ...(format === 'query_base64_json' ? { query_param_name: 'd' } : {}),
      };
      expect(check(current(), sent)).toEqual(ok ? [] : ['methods']);
    },
  );

  it('a PATCH of the format alone is checked against the stored methods', () => {
    expect(check(current({ methods: ['GET'], payload_format: 'query' }), { payload_format: 'json' })).toEqual([
      'methods',
    ]);
  });

  it('query parameter name: required for Base64 JSON, refused for other formats', () => {
    expect(check(current(), { payload_format: 'query_base64_json' })).toEqual(['query_param_name']);
    expect(check(current(), { payload_format: 'query_base64_json', query_param_name: 'has space' })).toEqual([
      'query_param_name',
    ]);
    expect(check(current(), { query_param_name: 'd' })).toEqual(['query_param_name']);
    expect(check(current(), { query_param_required: false })).toEqual(['query_param_required']);
    expect(
      check(current(), { payload_format: 'query_base64_json', query_param_name: 'd', query_param_required: false }),
    ).toEqual([]);
  });

  it('switching away from Base64 JSON resets the stored parameter settings instead of failing', () => {
    const base = current({ payload_format: 'query_base64_json', query_param_name: 'd', query_param_required: false });
    const { merged, changes } = mergeSettings(base, { payload_format: 'json' });
    expect(changes).toEqual({ payload_format: 'json', query_param_name: null, query_param_required: true });
    expect(checkCombination(merged, { payload_format: 'json' })).toEqual([]);
  });

  it('a sent value equal to the stored one is no change; secrets always are one', () => {
    const base = current({ rate_limit_per_minute: 5, ip_access: { allow: ['::1'], deny: [] } });
    const inbound_auth = { type: 'BEARER' as const, tokens: ['t'] };
    expect(
      mergeSettings(base, {
        rate_limit_per_minute: 5,
        ip_access: { allow: ['::1'], deny: [] },
        name: 'other',
        inbound_auth,
      }).changes,
    ).toEqual({ name: 'other', inbound_auth });
  });

  it('refuses settings the format switches off (captcha, field rules, body filters)', () => {
    const captcha = { provider: 'turnstile' as const, secret: 's' };
    expect(check(current({ captcha }), { payload_format: 'query' })).toEqual(['captcha']);
    expect(check(current({ field_rules: [{ path: 'a', required: true }] }), { payload_format: 'text' })).toEqual([
      'field_rules',
    ]);
    expect(check(current({ body_filters: [{ kind: 'contains', value: 'x' }] }), { payload_format: 'none' })).toEqual([
      'body_filters',
    ]);
    expect(check(current({ body_filters: [{ kind: 'contains', value: 'x' }] }), { payload_format: 'query' })).toEqual(
      [],
    );
  });
});
