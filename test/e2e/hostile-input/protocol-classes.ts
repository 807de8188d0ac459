import { ACCEPTED, ANY, bodyRequest, MAX_BODY, only, PLAN_LIMIT, randomJsonBytes } from './cases';
import type { ClassName, Ctx, HostileCase } from './cases';
import type { RoleName } from './endpoints';
import type { Expectation } from './oracle';
import type { WritePlan } from './raw-http';
import { chunked, encodeHead, encodeRequest, oneShot } from './request';
import type { RequestShape } from './request';

/**
 * Generators for the protocol classes: query strings, headers, paths, methods and framing. Most
 * of these need bytes no HTTP client sends, so they are written raw (request.ts). Node's HTTP
 * parser refuses many of them before Relay's code runs; the answer must still be a designed one
 * (oracle.ts): a JSON `{code, message}` with a documented status, never a bare 400/417 or silence.
 */
const raw = (cls: ClassName, what: string, plan: WritePlan, expect: Expectation, head = false): HostileCase => ({
  cls,
  what,
  plan,
  expect,
  head,
});
const refusedRequest = only(400);
/** Larger than Node's default 16 KiB header section, the request line included. */
const HEADER_LIMIT = 16384;

const jsonPost = (target: string, method = 'POST'): RequestShape => ({
  method,
  target,
  headers: ['Content-Type: application/json'],
  body: Buffer.from('{}'),
});

export function queryStrings(ctx: Ctx): HostileCase {
  const { rng, roster } = ctx;
  const role = rng.pick<RoleName>(['query_open', 'b64_open', 'json_open', 'none_open']);
  const pick = rng.int(0, 4);
  let query: string;
  let what: string;
  let expect: Expectation;
  if (pick === 0) {
    query = Array.from({ length: 10000 }, (_, i) => `p${i}=${rng.chars(rng.int(0, 6))}`).join('&');
    what = `10,000 parameters (${query.length} bytes)`;
    // query formats: more than 64 pairs (400) or over the plan limit (413); a URL over the header limit: 431
    expect = { statuses: role === 'query_open' || role === 'b64_open' ? [400, 413, 431] : [202, 400, 413, 431] };
  } else if (pick === 1) {
    const size = rng.int(MAX_BODY - 1024, MAX_BODY + 1024);
    query = rng.bool()
      ? `a=${'x'.repeat(size)}`
      : Array.from({ length: Math.ceil(size / 8) }, (_, i) => `k${i % 1000}=vv`)
          .join('&')
          .slice(0, size);
    what = `a ${query.length}-byte query string`;
    expect = { statuses: role === 'query_open' || role === 'b64_open' ? [400, 413, 431] : [202, 400, 413, 431] };
  } else if (pick === 2) {
    const size = rng.int(HEADER_LIMIT + 1, PLAN_LIMIT);
    query = `a=${'y'.repeat(size)}`;
    what = `one parameter, ${size} bytes (under the plan limit, over the header limit)`;
    expect = { statuses: role === 'b64_open' ? [400, 431] : [202, 431] };
  } else if (pick === 3) {
    query = rng.pick([
      '%ZZ',
      'a=100%',
      'a=%00',
      'a=%FF%FE',
      '+=+',
      'a=b=c',
      '&&&',
      '=x',
      'a[]=1&a[]=2',
      'a;b=1',
      'a=%E2%82%AC&a=%u20AC',
      '__proto__[x]=1',
    ]);
    what = `odd query ${query}`;
    expect = role === 'b64_open' ? only(400, 'malformed_query_param') : ACCEPTED;
  } else {
    // exactly 64 pairs is the limit; 65 is one too many (payload-formats.md)
    const n = rng.pick([64, 65]);
    query = Array.from({ length: n }, (_, i) => `k${i}=${rng.chars(rng.int(0, 100))}`).join('&');
    what = `${n} parameters`;
    expect =
      role === 'query_open'
        ? n === 64
          ? ACCEPTED
          : only(400, 'malformed_query_param')
        : role === 'b64_open'
          ? only(400, 'malformed_query_param')
          : ACCEPTED;
  }
  const method = role === 'json_open' ? 'POST' : 'GET';
  return bodyRequest(ctx, {
    cls: 'query-strings',
    what: `${what} to ${roster.format(role)}`,
    role,
    method,
    query,
    contentType: method === 'POST' ? 'application/json' : null,
    body: method === 'POST' ? Buffer.from('{}') : Buffer.alloc(0),
    expect,
  });
}

export function oversizedHeaders(ctx: Ctx): HostileCase {
  const { rng, roster } = ctx;
  const pick = rng.int(0, 7);
  if (pick <= 1) {
    // A Content-Type over 256 characters once broke the message schema and the request was never answered
    const role = rng.pick<RoleName>(['json_open', 'form_open', 'xml_open', 'text_open']);
    const base = {
      json_open: 'application/json',
      form_open: 'application/x-www-form-urlencoded',
      xml_open: 'application/xml',
      text_open: 'text/plain',
    }[role as string]!;
    const long = `${base}; charset=utf-8; x=${'a'.repeat(rng.int(257, 4000))}`;
    const body = { json_open: '{"a":1}', form_open: 'a=1', xml_open: '<r/>', text_open: 'hi' }[role as string]!;
    return bodyRequest(ctx, {
      cls: 'oversized-headers',
      what: `Content-Type of ${long.length} characters`,
      role,
      contentType: long,
      body: Buffer.from(body),
      expect: { statuses: [202, 400, 415] },
    });
  }
  if (pick === 2) {
    // With TRUST_PROXY_HOPS=1 an X-Forwarded-For entry over 64 characters is the source address
    const role = rng.pick<RoleName>(['json_open', 'json_ipallow', 'none_open']);
    const entry = rng.pick([
      `${'b'.repeat(rng.int(65, 2000))}`,
      `fe80::1%${'z'.repeat(rng.int(60, 500))}`,
      `${'1'.repeat(70)}`,
      `[${'::1'.repeat(30)}]:80`,
    ]);
    const xff = rng.bool() ? entry : `203.0.113.7, ${entry}`;
    return bodyRequest(ctx, {
      cls: 'oversized-headers',
      what: `X-Forwarded-For ${xff.slice(0, 40)}… (${xff.length} chars)`,
      role,
      body: Buffer.from('{}'),
      headers: [`X-Forwarded-For: ${xff}`],
      expect: { statuses: [202, 400, 403] },
    });
  }
  if (pick === 3) {
    const n = rng.int(100, 1000);
    const xff = Array.from({ length: n }, (_, i) => `10.${i % 256}.${(i >> 8) % 256}.1`).join(', ');
    const role = rng.pick<RoleName>(['json_open', 'json_ipallow']);
    const fits = xff.length < HEADER_LIMIT - 512;
    return bodyRequest(ctx, {
      cls: 'oversized-headers',
      what: `X-Forwarded-For with ${n} entries (${xff.length} chars)`,
      role,
      body: Buffer.from('{}'),
      headers: [`X-Forwarded-For: ${xff}`],
      expect: fits ? { statuses: role === 'json_ipallow' ? [403] : [202] } : { statuses: [400, 431] },
    });
  }
  if (pick === 4) {
    const size = rng.int(HEADER_LIMIT, 64 * 1024);
    return bodyRequest(ctx, {
      cls: 'oversized-headers',
      what: `one ${size}-byte header`,
      role: 'json_open',
      body: Buffer.from('{}'),
      headers: [`X-Big: ${'v'.repeat(size)}`],
      expect: { statuses: [400, 431] },
    });
  }
  if (pick === 5) {
    // Node counts header names and values against its limit: stay well under it, or go well over it
    const over = rng.bool();
    const n = over ? rng.int(2500, 3000) : rng.int(100, 700);
    const headers = Array.from({ length: n }, (_, i) => `X-H${i}: ${rng.chars(4)}`);
    return bodyRequest(ctx, {
      cls: 'oversized-headers',
      what: `${n} headers`,
      role: 'json_open',
      body: Buffer.from('{}'),
      headers,
      expect: over ? { statuses: [400, 431] } : ACCEPTED,
    });
  }
  if (pick === 6) {
    // An Expect other than 100-continue must be processed, or refused with a row
    const expectValue = rng.pick([
      '',
      'foo',
      '100-continue, foo',
      '200-ok',
      'continue',
      '100-CONTINUE',
      '\u00e9',
      '100-continue',
    ]);
    return bodyRequest(ctx, {
      cls: 'oversized-headers',
      what: `Expect: ${JSON.stringify(expectValue)}`,
      role: rng.pick<RoleName>(['json_open', 'json_bearer']),
      body: randomJsonBytes(rng),
      headers: [`Expect: ${expectValue}`],
      expect: { statuses: [202, 417] },
    });
  }
  // Content-Types that are not the format's: missing, multipart, +json, parameters odd
  const [contentType, expect]: [string | null, Expectation] = rng.pick<[string | null, Expectation]>([
    [null, only(415, 'unsupported_media_type')],
    ['multipart/form-data; boundary=x', only(415, 'unsupported_media_type')],
    ['application/vnd.api+json', only(415, 'unsupported_media_type')],
    ['text/plain', only(415, 'unsupported_media_type')],
    ['application/json;;;', { statuses: [202, 415] }],
    ['application/json; charset', { statuses: [202, 415] }],
    ['application/json; charset=\u00e9\u00ff', { statuses: [202, 415] }],
    ['application/json\t', { statuses: [202, 415] }],
    [' application/json', { statuses: [202, 415] }],
  ]);
  return bodyRequest(ctx, {
    cls: 'oversized-headers',
    what: `Content-Type ${JSON.stringify(contentType)} to ${roster.format('json_bearer')}`,
    role: 'json_bearer',
    contentType,
    body: Buffer.from('{"a":1}'),
    expect,
  });
}

/** Heads Node's parser refuses (probed on Node 20): each must still get a designed 400. */
const MALFORMED_HEADS: Array<[string, (id: string) => string]> = [
  [
    'a header line without a colon',
    (id) =>
      `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nBadHeader\r\nContent-Length: 2\r\n\r\n{}`,
  ],
  [
    'a space inside a header name',
    (id) => `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX A: 1\r\nContent-Length: 2\r\n\r\n{}`,
  ],
  [
    'a space before the colon',
    (id) =>
      `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type : application/json\r\nContent-Length: 2\r\n\r\n{}`,
  ],
  [
    'an empty header name',
    (id) => `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n: v\r\nContent-Length: 2\r\n\r\n{}`,
  ],
  [
    'NUL in a header value',
    (id) =>
      `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-A: a\u0000b\r\nContent-Length: 2\r\n\r\n{}`,
  ],
  [
    'a bare CR in a header value',
    (id) => `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-A: a\rb\r\nContent-Length: 2\r\n\r\n{}`,
  ],
  [
    'an obs-fold continuation line',
    (id) =>
      `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-A: a\r\n  folded\r\nContent-Length: 2\r\n\r\n{}`,
  ],
  [
    'a non-ASCII header name',
    (id) => `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-\u00e9: a\r\nContent-Length: 2\r\n\r\n{}`,
  ],
  [
    'no Host header',
    (id) =>
      `POST /relay/${id} HTTP/1.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
  ],
  [
    'Content-Length: abc',
    (id) => `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: abc\r\n\r\n{}`,
  ],
  [
    'Content-Length: -1',
    (id) => `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: -1\r\n\r\n{}`,
  ],
  [
    'Content-Length: +2',
    (id) => `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: +2\r\n\r\n{}`,
  ],
  [
    'Content-Length: 2, 2',
    (id) => `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2, 2\r\n\r\n{}`,
  ],
  [
    'two Content-Length headers',
    (id) =>
      `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
  ],
  [
    'Content-Length and Transfer-Encoding: chunked',
    (id) =>
      `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
  ],
  [
    'Transfer-Encoding: identity',
    (id) => `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: identity\r\n\r\n{}`,
  ],
  [
    'Transfer-Encoding: chunked, chunked',
    (id) =>
      `POST /relay/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
  ],
  [
    'LF-only line endings',
    (id) =>
      `POST /relay/${id} HTTP/1.1\nHost: x\nConnection: close\nContent-Type: application/json\nContent-Length: 2\n\n{}`,
  ],
  ['HTTP/1.2', (id) => `POST /relay/${id} HTTP/1.2\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}`],
  ['the HTTP/2 preface', () => 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
  [
    'a non-ASCII byte in the path',
    (id) => `POST /relay/${id}\u00e9 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}`,
  ],
  [
    'a request line of garbage',
    () => `\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003 not http\r\n\r\n`,
  ],
];

export function malformedHeaders(ctx: Ctx): HostileCase {
  const { rng, roster } = ctx;
  const [what, head] = rng.pick(MALFORMED_HEADS);
  return raw('malformed-headers', what, oneShot(Buffer.from(head(roster.id.json_open), 'latin1')), refusedRequest);
}

const BAD_SYNTAX = ['%ZZ', '%', '%4', '%G0', '%%', '%u0041', 'ep_%ZZ', '%E0%A4%A', '%zz%zz'];
const BAD_UTF8 = ['%C0%AF', '%ED%A0%80', '%FF', '%F8%88%80%80%80', '%80', '%C3', '%E2%82'];
const ODD_BUT_VALID = [
  '%00',
  '%20',
  '..%2F..%2Fv1%2Fendpoints',
  '%2e%2e',
  '%F0%9F%98%80',
  'a%2Fb',
  '%3Cscript%3E',
  '.',
  '..',
];

export function percentEncodingPaths(ctx: Ctx): HostileCase {
  const { rng, roster } = ctx;
  const pick = rng.int(0, 5);
  const post = (target: string, what: string, expect: Expectation): HostileCase =>
    raw('percent-encoding-paths', what, oneShot(encodeRequest(jsonPost(target))), expect);
  if (pick === 0) {
    // `/relay/%ZZ` answered 500 with a stack trace in the log
    const bad = rng.pick(BAD_SYNTAX);
    const target = rng.bool(0.3) ? `/relay/${roster.id.json_open}${bad}` : `/relay/${bad}`;
    return post(target, `path ${target}`, only(400));
  }
  if (pick === 1) {
    const bad = rng.pick(BAD_UTF8);
    return post(`/relay/${bad}`, `path /relay/${bad} (percent-encoded bytes that are not UTF-8)`, {
      statuses: [400, 404],
    });
  }
  if (pick === 2) {
    const odd = rng.pick(ODD_BUT_VALID);
    return post(`/relay/${odd}`, `path /relay/${odd}`, only(404, 'endpoint_not_found'));
  }
  if (pick === 3) {
    // an endpoint id written with percent-escapes is the same id
    const id = roster.id.json_open;
    const i = rng.int(0, id.length - 1);
    const target = `/relay/${id.slice(0, i)}%${id.charCodeAt(i).toString(16).toUpperCase()}${id.slice(i + 1)}`;
    return post(target, `the json_open id with one character percent-encoded (${target})`, ACCEPTED);
  }
  if (pick === 4) {
    // A flood of random unknown ids must not grow the gateway
    const id = rng.chars(rng.int(1, 8000), 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-');
    return post(`/relay/${id}`, `unknown ${id.length}-character id`, only(404, 'endpoint_not_found'));
  }
  const path = rng.pick([
    '/relay/',
    '/relay',
    '/relay/a/b',
    '/%ZZ',
    '/v1/endpoints/%ZZ',
    '//relay/x',
    '/relay%2Fx',
    '/RELAY/x',
    '/metrics%ZZ',
    '/favicon.ico',
  ]);
  return post(path, `path ${path}`, { statuses: [400, 404] });
}

/** Methods Node's parser knows: each goes through the endpoint's method check. */
const KNOWN_METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'TRACE',
  'OPTIONS',
  'PROPFIND',
  'M-SEARCH',
  'PURGE',
  'MKCOL',
  'LINK',
  'UNLINK',
  'QUERY',
  'SEARCH',
  'LOCK',
  'REPORT',
];
const UNKNOWN_METHODS = ['post', 'get', 'Post', 'delete', 'FOO', 'GETT', 'P0ST', 'CONNECTX', 'BREW'];
const ROLE_METHODS: Partial<Record<RoleName, string[]>> = {
  json_open: ['POST', 'PUT', 'PATCH'],
  none_open: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  query_open: ['GET', 'HEAD', 'POST'],
  xml_apikey: ['POST'],
};

export function oddMethods(ctx: Ctx): HostileCase {
  const { rng, roster } = ctx;
  const pick = rng.int(0, 9);
  const role = rng.pick<RoleName>(['json_open', 'none_open', 'query_open', 'xml_apikey']);
  const id = roster.id[role];
  if (pick === 0) {
    // CONNECT, in origin form and in its own authority form
    const head = rng.bool()
      ? `CONNECT /relay/${id} HTTP/1.1\r\nHost: x\r\n\r\n`
      : `CONNECT 127.0.0.1:${rng.int(1, 65535)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    return raw('odd-methods', head.split('\r\n')[0]!, oneShot(Buffer.from(head)), { statuses: [400, 405] });
  }
  if (pick <= 2) {
    const method = rng.pick(UNKNOWN_METHODS);
    return raw('odd-methods', `${method} /relay/${role}`, oneShot(encodeRequest(jsonPost(`/relay/${id}`, method))), {
      statuses: [400, 405],
    });
  }
  const method = rng.pick(KNOWN_METHODS);
  const allowed = ROLE_METHODS[role]!.includes(method);
  const body = role === 'json_open' ? Buffer.from('{}') : role === 'xml_apikey' ? Buffer.from('<r/>') : Buffer.alloc(0);
  const hasBody = method !== 'GET' && method !== 'HEAD' && method !== 'TRACE' && body.length > 0;
  return bodyRequest(ctx, {
    cls: 'odd-methods',
    what: `${method} (allowed: ${ROLE_METHODS[role]!.join(' ')})`,
    role,
    method,
    body: hasBody ? body : Buffer.alloc(0),
    contentType: hasBody ? undefined : null,
    authValid: true,
    expect: allowed ? ACCEPTED : only(405, 'method_not_allowed'),
  });
}

export function contentLengthLies(ctx: Ctx): HostileCase {
  const { rng, roster } = ctx;
  const body = randomJsonBytes(rng);
  const id = roster.id.json_open;
  const pick = rng.int(0, 3);
  const head = (length: string, close = true): Buffer =>
    encodeHead({
      method: 'POST',
      target: `/relay/${id}`,
      headers: ['Content-Type: application/json', `Content-Length: ${length}`],
      close,
    });
  if (pick === 0) {
    // shorter than the body: the rest is read as a second request on the connection
    const declared = rng.int(0, body.length - 1);
    const keepAlive = rng.bool();
    return raw(
      'content-length-lies',
      `Content-Length ${declared} for a ${body.length}-byte body${keepAlive ? ', keep-alive' : ''}`,
      oneShot(Buffer.concat([head(String(declared), !keepAlive), body])),
      { ...ANY, several: true },
    );
  }
  if (pick === 1) {
    // longer than the body, then the sender half-closes: it may be answered or just closed
    const declared = body.length + rng.int(1, 5000);
    return raw(
      'content-length-lies',
      `Content-Length ${declared} for a ${body.length}-byte body, then FIN`,
      { parts: [{ bytes: Buffer.concat([head(String(declared)), body]) }], after: 'end' },
      { statuses: [400, 408], mayCloseUnanswered: true },
    );
  }
  if (pick === 2) {
    // declared over the read ceiling: refused at once, without waiting for the body
    const declared = rng.pick([MAX_BODY + 1, 10 * MAX_BODY, 1e12, 2 ** 53]);
    return raw(
      'content-length-lies',
      `Content-Length ${declared} for a ${body.length}-byte body`,
      oneShot(Buffer.concat([head(String(declared)), body])),
      only(413, 'payload_too_large'),
    );
  }
  return raw(
    'content-length-lies',
    `Content-Length with leading zeros (000${body.length})`,
    oneShot(Buffer.concat([head(`000${body.length}`), body])),
    ACCEPTED,
  );
}

export function chunkedBodies(ctx: Ctx): HostileCase {
  const { rng, roster } = ctx;
  const pick = rng.int(0, 6);
  if (pick <= 1) {
    const body = randomJsonBytes(rng);
    return bodyRequest(ctx, {
      cls: 'chunked-bodies',
      what: `valid chunked JSON, ${body.length} bytes`,
      role: rng.pick<RoleName>(['json_open', 'json_github']),
      body,
      framing: { chunkSize: rng.int(1, 64) },
      expect: ACCEPTED,
    });
  }
  if (pick <= 3) {
    const size = pick === 2 ? rng.int(PLAN_LIMIT + 1, MAX_BODY) : rng.int(MAX_BODY + 1, 3 * MAX_BODY);
    const body = Buffer.concat([Buffer.from('{"s":"'), Buffer.alloc(size - 8, 'c'), Buffer.from('"}')]);
    return bodyRequest(ctx, {
      cls: 'chunked-bodies',
      what: `chunked body of ${size} bytes (plan limit ${PLAN_LIMIT}, read ceiling ${MAX_BODY})`,
      role: rng.pick<RoleName>(['json_open', 'json_github', 'text_open']),
      body,
      framing: { chunkSize: rng.pick([1024, 16384, 65536]) },
      expect: only(413, 'payload_too_large'),
    });
  }
  const id = roster.id.json_open;
  const head = encodeHead({
    method: 'POST',
    target: `/relay/${id}`,
    headers: ['Content-Type: application/json', 'Transfer-Encoding: chunked'],
  });
  if (pick === 4) {
    const framing = rng.pick([
      'zz\r\n{}\r\n0\r\n\r\n',
      '-2\r\n{}\r\n0\r\n\r\n',
      '2\r\n{}XX0\r\n\r\n',
      'ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n',
      '2\r\n{}\r\n0\r\n\u0000\r\n\r\n',
      ' \r\n{}\r\n0\r\n\r\n',
    ]);
    return raw(
      'chunked-bodies',
      `malformed chunking ${JSON.stringify(framing)}`,
      oneShot(Buffer.concat([head, Buffer.from(framing, 'latin1')])),
      refusedRequest,
    );
  }
  if (pick === 5) {
    // one chunk declared at 256 MiB, then more than the read ceiling of it
    const data = Buffer.alloc(MAX_BODY + rng.int(1, 512 * 1024), 'd');
    return raw(
      'chunked-bodies',
      `a chunk declared 0xfffffff long, ${data.length} bytes of it sent`,
      oneShot(Buffer.concat([head, Buffer.from('fffffff\r\n'), data])),
      only(413, 'payload_too_large'),
    );
  }
  const body = randomJsonBytes(rng);
  const withExtensions = Buffer.concat([
    Buffer.from(`${body.length.toString(16)};ext=1;name="v"\r\n`),
    body,
    Buffer.from('\r\n0\r\nX-Trailer: t\r\n\r\n'),
  ]);
  return raw(
    'chunked-bodies',
    'chunk extensions and a trailer',
    oneShot(Buffer.concat([head, withExtensions])),
    ACCEPTED,
  );
}

/** Bodies and heads that arrive slowly but completely, within about three seconds. */
export function slowBodies(ctx: Ctx): HostileCase {
  const { rng, roster } = ctx;
  const body = randomJsonBytes(rng);
  const bytes = encodeRequest({
    method: 'POST',
    target: `/relay/${roster.id.json_open}`,
    headers: ['Content-Type: application/json'],
    body,
  });
  const headLength = bytes.indexOf('\r\n\r\n') + 4;
  const slowHead = rng.bool();
  const pieces = rng.int(3, 10);
  const [from, to] = slowHead ? [0, headLength] : [headLength, bytes.length];
  const cuts = [from, ...Array.from({ length: pieces - 1 }, () => rng.int(from, to)).sort((a, b) => a - b), to];
  const parts: WritePlan['parts'] = slowHead ? [] : [{ bytes: bytes.subarray(0, headLength) }];
  for (let i = 0; i + 1 < cuts.length; i++)
    if (cuts[i + 1]! > cuts[i]!)
      parts.push({ bytes: bytes.subarray(cuts[i]!, cuts[i + 1]!), delayMs: rng.int(50, 300) });
  if (slowHead) parts.push({ bytes: bytes.subarray(headLength) });
  return raw(
    'slow-bodies',
    `${slowHead ? 'head' : 'body'} sent in ${parts.length} parts over ~${parts.reduce((s, p) => s + (p.delayMs ?? 0), 0)} ms`,
    { parts, after: 'wait' },
    { statuses: [202, 408] },
  );
}

/**
 * Senders that stop: a body shorter than its Content-Length, a head without its blank line, a
 * chunked body without its last chunk. The gateway must answer 408 (or 400) and close within
 * its own timeouts, never hold the connection for minutes.
 */
export function stalledRequest(ctx: Ctx): HostileCase {
  const { rng, roster } = ctx;
  const body = randomJsonBytes(rng);
  const id = roster.id.json_open;
  const pick = rng.int(0, 2);
  let bytes: Buffer;
  let what: string;
  if (pick === 0) {
    const head = encodeHead({
      method: 'POST',
      target: `/relay/${id}`,
      headers: ['Content-Type: application/json', `Content-Length: ${body.length + rng.int(1, 1000)}`],
    });
    bytes = Buffer.concat([head, body]);
    what = 'a body that stops before its Content-Length';
  } else if (pick === 1) {
    const head = encodeHead({
      method: 'POST',
      target: `/relay/${id}`,
      headers: ['Content-Type: application/json', `Content-Length: ${body.length}`],
    });
    bytes = head.subarray(0, rng.int(10, head.length - 4));
    what = `a head that stops after ${bytes.length} bytes`;
  } else {
    const head = encodeHead({
      method: 'POST',
      target: `/relay/${id}`,
      headers: ['Content-Type: application/json', 'Transfer-Encoding: chunked'],
    });
    const all = chunked(body, 16);
    bytes = Buffer.concat([head, all.subarray(0, all.length - 5)]);
    what = 'a chunked body without its last chunk';
  }
  return {
    cls: 'slow-bodies',
    what: `stalled: ${what}`,
    plan: oneShot(bytes),
    head: false,
    expect: { statuses: [400, 408] },
    stalls: true,
  };
}
