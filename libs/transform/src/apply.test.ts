import { applyTransformations, inputOf, outputOf } from './apply';
import type { Transformation } from './apply';
import type { Carried, TransformContext } from './request';
import { Sandbox } from './sandbox';

/* The function's contract: what it sees per payload format, what a result changes, how a chain composes, and how it fails. */

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.load({ timeMs: 200 });
});
afterAll(() => sandbox.close());

const CONTEXT: TransformContext = {
  event_id: 'evt_1',
  received_at: '2026-11-28T00:00:00.000Z',
  endpoint: { id: 'ep_1', name: 'shop' },
  target: { id: 'tg_1', name: 'partner', kind: 'webhook' },
  provider: 'stripe',
};

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const text = (c: Carried): string => Buffer.from(c.payload.body_base64, 'base64').toString('utf8');
const carried = (contentType: string | null, body: string, query = ''): Carried => ({
  request: { method: 'POST', source_ip: '127.0.0.1', headers: { 'x-in': '1' }, query },
  payload: { content_type: contentType, body_base64: b64(body) },
});
const t = (code: string, scope: Transformation['scope'] = 'endpoint', version = 1): Transformation => ({
  scope,
  version,
  code,
});
const apply = (chain: Transformation[], c: Carried, maxOutputBytes = 1 << 20) =>
  applyTransformations(
    async (tenant, code, args) => sandbox.call(tenant, code, args),
    'acc_1',
    chain,
    c,
    CONTEXT,
    maxOutputBytes,
  );
const echo = t(`(r, c) => ({ ...r, body: { seen: r.body, query: r.query, path: r.path, context: c } })`);

describe('the body as each payload format reads it', () => {
  test.each([
    ['JSON: the parsed value', carried('application/json', '{"a":[1,2]}'), { a: [1, 2] }],
    ['JSON that does not parse: the text', carried('application/json', '{"a":'), '{"a":'],
    [
      'form: an object, repeated names as arrays',
      carried('application/x-www-form-urlencoded', 'a=1&b=2&b=3'),
      { a: '1', b: ['2', '3'] },
    ],
    ['query formats (handed over as JSON): the object', carried('application/json', '{"order":"42"}'), { order: '42' }],
    ['XML: the text', carried('application/xml', '<a>1</a>'), '<a>1</a>'],
    ['text: the text', carried('text/plain', 'hello'), 'hello'],
    ['text holding a NUL character: the whole text', carried('text/plain', 'a\u0000b'), 'a\u0000b'],
    ['none: null', carried(null, ''), null],
  ])('%s', async (_name, c, body) => {
    const r = await apply(
      [t(`(r) => ({ headers: { 'content-type': 'application/json' }, body: { seen: r.body } })`)],
      c,
    );
    if (r.result !== 'pass') throw new Error(r.result);
    // what the function saw, and what a preview shows it saw
    expect(JSON.parse(text(r.carried)).seen).toEqual(body);
    expect(inputOf(r.ran[0]!, CONTEXT.endpoint.id).body).toEqual(body);
  });

  test('query, path and the context reach the function', async () => {
    const r = await apply([echo], carried('application/json', '{}', 'x=1&y=2'));
    if (r.result !== 'pass') throw new Error(r.result);
    const seen = JSON.parse(text(r.carried));
    expect(seen.query).toEqual({ x: '1', y: '2' });
    expect(seen.path).toBe('/relay/ep_1');
    expect(seen.context).toEqual(CONTEXT);
  });
});

describe('what a result changes', () => {
  test('an object body is sent as JSON; a header set is forwarded; content-type sets the payload type', async () => {
    const r = await apply(
      [t(`(r) => ({ ...r, headers: { ...r.headers, 'X-Out': 'yes' }, body: { total: r.body.length } })`)],
      carried('text/plain', 'ignored'),
    );
    if (r.result !== 'pass') throw new Error(r.result);
    expect(r.carried.payload.content_type).toBe('application/json');
    expect(r.carried.request.headers).toEqual({ 'x-in': '1', 'x-out': 'yes' });
    expect(text(r.carried)).toBe('{"total":7}');
  });

  test('a string body is sent as it is, with the type the function gave', async () => {
    const r = await apply(
      [t(`(r) => ({ ...r, headers: { 'content-type': 'text/csv' }, body: 'a,b' })`)],
      carried('application/json', '{}'),
    );
    if (r.result !== 'pass') throw new Error(r.result);
    expect([r.carried.payload.content_type, text(r.carried), r.carried.request.headers]).toEqual([
      'text/csv',
      'a,b',
      {},
    ]);
  });

  test('a form stays a form', async () => {
    const r = await apply(
      [t(`(r) => ({ ...r, body: { ...r.body, c: 'new' } })`)],
      carried('application/x-www-form-urlencoded', 'a=1'),
    );
    if (r.result !== 'pass') throw new Error(r.result);
    expect(text(r.carried)).toBe('a=1&c=new');
  });

  test('a path and query other than the received ones become the address; the next step sees them', async () => {
    const r = await apply(
      [
        t(`(r) => ({ ...r, path: '/orders/' + r.body.id, query: { ...r.query, kind: 'charge' } })`, 'endpoint'),
        t(`(r) => ({ ...r, body: { path: r.path, query: r.query } })`, 'target'),
      ],
      carried('application/json', '{"id":7}', 'x=1'),
    );
    if (r.result !== 'pass') throw new Error(r.result);
    expect(r.carried.address).toEqual({ path: '/orders/7', query: 'x=1&kind=charge' });
    expect(JSON.parse(text(r.carried))).toEqual({ path: '/orders/7', query: { x: '1', kind: 'charge' } });
    expect(outputOf(r.ran[0]!, 'ep_1')).toMatchObject({ path: '/orders/7', query: { x: '1', kind: 'charge' } });
  });

  test('a path and query as received give no address; the method is read, not applied', async () => {
    const r = await apply(
      [t(`(r) => ({ ...r, method: 'DELETE', body: 1 })`)],
      carried('application/json', '{}', 'x=1'),
    );
    if (r.result !== 'pass') throw new Error(r.result);
    expect(r.carried.address).toBeUndefined();
    expect(r.carried.request.method).toBe('POST');
  });

  test('an async function is awaited', async () => {
    const r = await apply(
      [t(`async (r) => ({ ...r, body: await Promise.resolve(2) })`)],
      carried('application/json', '1'),
    );
    expect(r.result === 'pass' && text(r.carried)).toBe('2');
  });
});

describe('a chain: the endpoint’s transformation, then the target’s', () => {
  test('each sees what the one before returned', async () => {
    const r = await apply(
      [
        t(`(r) => ({ ...r, body: { n: r.body.n * 10 } })`, 'endpoint', 4),
        t(`(r) => ({ ...r, body: { n: r.body.n + 1 } })`, 'target', 2),
      ],
      carried('application/json', '{"n":1}'),
    );
    if (r.result !== 'pass') throw new Error(r.result);
    expect(text(r.carried)).toBe('{"n":11}');
    expect(r.ran.map((x) => [x.scope, x.version, outputOf(x, 'ep_1')?.body])).toEqual([
      ['endpoint', 4, { n: 10 }],
      ['target', 2, { n: 11 }],
    ]);
  });

  test('null drops the event: the rest of the chain does not run', async () => {
    const r = await apply([t(`() => null`, 'endpoint'), t(`(r) => r`, 'target')], carried('application/json', '{}'));
    expect(r).toMatchObject({ result: 'dropped', scope: 'endpoint' });
    expect(r.ran).toHaveLength(1);
  });
});

describe('failures name the scope, version, line and message', () => {
  test.each([
    [
      'a throw, with its line',
      `(r) => {\n  const x = 1;\n  throw new Error('bad ' + x);\n}`,
      /^endpoint transformation v1, line 3: Error: bad 1$/,
    ],
    [
      'a TypeError, with its line',
      `(r) => {\n  return r.body.missing.deeper;\n}`,
      /^endpoint transformation v1, line 2: TypeError: /,
    ],
    ['a syntax error', `(r) => {`, /^endpoint transformation v1.*SyntaxError/],
    ['not a function', `42`, /must be a function/],
    ['undefined returned', `(r) => { r.body = 1 }`, /returned nothing/],
    ['a result that is not a request', `() => [1, 2]`, /invalid result: the result must be a request object or null/],
    [
      'a header that is not a string',
      `(r) => ({ ...r, headers: { 'x-n': 5 } })`,
      /invalid result: headers.x-n must be a string/,
    ],
    [
      'a header name that is not one',
      `(r) => ({ ...r, headers: { 'bad name': 'v' } })`,
      /invalid result: headers: "bad name" is not a header name/,
    ],
    [
      'a path that is not one',
      `(r) => ({ ...r, path: 'orders' })`,
      /invalid result: path must be a string starting with \//,
    ],
    ['a path that climbs', `(r) => ({ ...r, path: '/a/../b' })`, /invalid result: path holds a \.\. segment/],
    [
      'a query value that is not a string',
      `(r) => ({ ...r, query: { n: 1 } })`,
      /invalid result: query.n must be a string or an array of strings/,
    ],
    [
      'a header value with a newline',
      `(r) => ({ ...r, headers: { 'x-a': 'a\\r\\nb' } })`,
      /headers.x-a holds a character/,
    ],
  ])('%s', async (_name, code, error) => {
    const r = await apply([t(code)], carried('application/json', '{"body":1}'));
    expect(r.result).toBe('failed');
    if (r.result === 'failed') expect(r.error).toMatch(error);
  });

  test('a result over the output limit', async () => {
    const r = await apply([t(`(r) => ({ ...r, body: 'x'.repeat(2000) })`)], carried('application/json', '{}'), 1000);
    expect(r.result === 'failed' && r.error).toMatch(/the result is \d+ bytes; at most 1000/);
  });

  test.each([
    ['a body alone', `() => ({ body: { a: 'xxxx' } })`, '{"body":{"a":"xxxx"}}'],
    ['a body after other keys', `() => ({ headers: {}, body: { a: 'xxxx' } })`, '{"headers":{},"body":{"a":"xxxx"}}'],
  ])('the limit counts the whole result’s JSON: %s', async (_name, code, json) => {
    const bytes = Buffer.byteLength(json);
    expect((await apply([t(code)], carried('application/json', '{}'), bytes)).result).toBe('pass');
    const over = await apply([t(code)], carried('application/json', '{}'), bytes - 1);
    expect(over.result === 'failed' && over.error).toContain(`the result is ${bytes} bytes; at most ${bytes - 1}`);
  });

  test('a timeout', async () => {
    const r = await apply([t(`() => { while (true) {} }`)], carried('application/json', '{}'));
    expect(r.result === 'failed' && r.error).toMatch(/interrupted/);
  });

  test('console lines are kept with the run', async () => {
    const r = await apply(
      [t(`(r) => { console.log('saw', r.body); return r }`)],
      carried('application/json', '{"a":1}'),
    );
    expect(r.ran[0]!.logs).toEqual(['saw {"a":1}']);
  });
});
