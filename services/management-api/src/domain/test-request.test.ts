import type { EndpointRecord } from '@relay/store';
import { parseTestRequest, SAMPLE_MESSAGE } from './test-request';

const endpoint = (over: Partial<EndpointRecord> = {}): EndpointRecord => {
  const now = new Date('2030-01-01T00:00:00Z');
  return {
    id: 'ep_1',
    account_id: 'acc_1',
    name: 'e',
    enabled: true,
    paused: false,
    methods: ['POST'],
    payload_format: 'json',
    inbound_auth: { type: 'NONE' },
    required_headers: [],
    body_filters: [],
    field_rules: [],
    ip_access: { allow: [], deny: [] },
    captcha: null,
    rate_limit_per_minute: null,
    query_param_name: null,
    query_param_required: true,
    maintenance_windows: [],
    revision: 1,
    created_at: now,
    updated_at: now,
    ...over,
  };
};
const now = new Date('2030-01-01T10:00:00Z');
const ok = (input: unknown, ep = endpoint()) => {
  const r = parseTestRequest(input, ep, now);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
};

describe('test request body (POST /v1/endpoints/:id/test)', () => {
  it.each([
    [
      'json',
      { payload_format: 'json' as const },
      'application/json',
      '',
      (b: string) => JSON.parse(b).message === SAMPLE_MESSAGE,
    ],
    [
      'form',
      { payload_format: 'form' as const },
      'application/x-www-form-urlencoded',
      '',
      (b: string) => new URLSearchParams(b).get('message') === SAMPLE_MESSAGE,
    ],
    ['xml', { payload_format: 'xml' as const }, 'application/xml', '', (b: string) => b.includes(SAMPLE_MESSAGE)],
    ['text', { payload_format: 'text' as const }, 'text/plain', '', (b: string) => b === SAMPLE_MESSAGE],
    ['none', { payload_format: 'none' as const }, undefined, '', (b: string) => b === ''],
    ['query', { payload_format: 'query' as const, methods: ['GET'] }, undefined, 'test=true', (b: string) => b === ''],
  ])('without a payload, sends a sample the %s format reads', (_f, over, type, query, bodyOk) => {
    const v = ok(undefined, endpoint(over));
    expect(v.headers['content-type']).toBe(type);
    expect(v.query.startsWith(query)).toBe(true);
    expect(bodyOk(v.body.toString())).toBe(true);
  });

  it("Base64 JSON: the sample is in the endpoint's query parameter", () => {
    const v = ok({}, endpoint({ payload_format: 'query_base64_json', methods: ['GET'], query_param_name: 'data' }));
    expect(v.method).toBe('GET');
    const param = new URLSearchParams(v.query).get('data')!;
    expect(JSON.parse(Buffer.from(param, 'base64url').toString())).toMatchObject({
      test: true,
      message: SAMPLE_MESSAGE,
    });
  });

  it('a JSON value is sent as JSON text, a string as its bytes, body_base64 as the bytes it encodes', () => {
    expect(ok({ body: { a: 1 } }).body.toString()).toBe('{"a":1}');
    expect(ok({ body: 'raw <x/>', content_type: 'text/plain' }).body.toString()).toBe('raw <x/>');
    expect(ok({ body_base64: Buffer.from([0, 1, 2]).toString('base64') }).body).toEqual(Buffer.from([0, 1, 2]));
  });

  it('takes method, headers (names lower-cased), query and content_type as given', () => {
    const v = ok({
      method: 'put',
      headers: { 'X-Team': 'blue' },
      query: '?a=1',
      content_type: 'application/json; charset=utf-8',
      body: {},
    });
    expect(v).toMatchObject({
      method: 'PUT',
      query: 'a=1',
      headers: { 'x-team': 'blue', 'content-type': 'application/json; charset=utf-8' },
    });
  });

  it('names every problem at once', () => {
    const r = parseTestRequest(
      {
        method: 'TRACE',
        headers: { 'Bad Name': 'x', Host: 'h', 'X-Ok': 'a\r\nb', 'Content-Type': 'x' },
        query: 'a b',
        body: 1,
        body_base64: '!!',
        extra: true,
      },
      endpoint(),
      now,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect([...new Set(r.errors.map((e) => e.field))].sort()).toEqual(
      [
        'body_base64',
        'extra',
        'headers.Bad Name',
        'headers.Content-Type',
        'headers.Host',
        'headers.X-Ok',
        'method',
        'query',
      ].sort(),
    );
  });
});
