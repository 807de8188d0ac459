import { checkCombination, validateEndpointInput } from './endpoint-input';

describe('endpoint settings validation', () => {
  it('applies the defaults on create: POST, JSON, enabled, not paused, inbound auth NONE', () => {
    expect(validateEndpointInput({ name: 'orders' }, 'create')).toEqual({
      ok: true,
      value: { name: 'orders', methods: ['POST'], payload_format: 'json', enabled: true, paused: false, inbound_auth: { type: 'NONE' } },
    });
  });

  it('names every offending field at once', () => {
    const r = validateEndpointInput({ name: '', methods: ['FETCH'], payload_format: 'yaml', enabled: 'yes', colour: 'red' }, 'create');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.field).sort()).toEqual(['colour', 'enabled', 'methods', 'name', 'payload_format']);
  });

  it.each([
    ['GET', 'json', false],
    ['HEAD', 'xml', false],
    ['GET', 'none', true],
    ['GET', 'query', true],
    ['HEAD', 'query_base64_json', true],
    ['PUT', 'query', true],
  ] as const)('Ingest: GET and HEAD may be used only with None and the query formats (%s with %s → ok=%s)', (method, format, ok) => {
    expect(checkCombination({ methods: [method], payload_format: format }).length === 0).toBe(ok);
  });
});
