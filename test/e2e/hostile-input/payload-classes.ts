import { ACCEPTED, bodyRequest, jsonValid, MAX_BODY, only, PLAN_LIMIT, randomJson, randomJsonBytes } from './cases';
import type { Ctx, HostileCase } from './cases';
import type { RoleName } from './endpoints';
import type { Expectation } from './oracle';

/**
 * Generators for the payload classes: each returns one request with its expected answer, drawn
 * from the seeded generator. Expectations follow docs/payload-formats.md; where the
 * exact answer is a limit's choice (depth limits), any status the limit allows is accepted.
 */
const JSON_ROLES: RoleName[] = ['json_open', 'json_github', 'json_stripe', 'json_bearer'];
const malformed = only(400, 'malformed_payload');
const jsonVerdict = (body: Buffer): Expectation => (jsonValid(body) ? ACCEPTED : malformed);

const INVALID_JSON_TEXTS = [
  '',
  ' ',
  '\ufeff',
  '{',
  '}',
  '[1,2,]',
  '{"a":1,}',
  'NaN',
  'Infinity',
  "{'a':1}",
  '{"a":undefined}',
  '{"a":01}',
  '{"a":1}{"b":2}',
  '1 2',
  '{"a":1}garbage',
  '{"a":"\u0001"}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '[[[[[[',
  '{"a" 1}',
  '{a:1}',
  '"unterminated',
  'tru',
  'nul',
  '--1',
  '{"a":1e}',
  '{"__proto__":}',
  '\u0000{}',
  '/* comment */ {}',
  '{"a":1} // comment',
];
const INVALID_JSON_BYTES = [
  Buffer.from('7b2261223a22ff227d', 'hex'),
  Buffer.from('7b2261223a22c0af227d', 'hex'),
  Buffer.from('7b2261223a22eda080227d', 'hex'),
  Buffer.from('fffe7b007d00', 'hex'),
];

export function invalidJson(ctx: Ctx): HostileCase {
  const { rng } = ctx;
  const role = rng.pick(JSON_ROLES);
  const contentType = rng.pick([
    'application/json',
    'Application/JSON; charset=UTF-8',
    'application/json;charset=utf-16',
    'application/json ; x="a;b"',
  ]);
  const valid = randomJsonBytes(rng);
  const variant = rng.int(0, 5);
  let body: Buffer;
  let what: string;
  if (variant === 0) {
    const cut = rng.int(1, valid.length - 1);
    body = valid.subarray(0, cut);
    what = `JSON cut at ${cut} of ${valid.length} bytes, ${contentType}`;
  } else if (variant === 1) {
    body = Buffer.from(valid);
    const flips = rng.int(1, 4);
    for (let i = 0; i < flips; i++) body[rng.int(0, body.length - 1)] = rng.int(0, 255);
    what = `JSON with ${flips} random bytes`;
  } else if (variant === 2) {
    body = rng.bytes(rng.int(1, 2000));
    what = `${body.length} random bytes`;
  } else if (variant === 3) {
    body = Buffer.from(rng.pick(INVALID_JSON_TEXTS));
    what = `invalid JSON text ${JSON.stringify(body.toString('utf8'))}`;
  } else if (variant === 4) {
    body = rng.pick(INVALID_JSON_BYTES);
    what = `JSON with invalid UTF-8 (${body.toString('hex')})`;
  } else {
    body = rng.bool() ? Buffer.concat([Buffer.from('\ufeff'), valid]) : valid;
    what = 'valid JSON (sometimes with a BOM)';
  }
  return bodyRequest(ctx, { cls: 'invalid-json', what, role, contentType, body, expect: jsonVerdict(body) });
}

export function overlongBody(ctx: Ctx): HostileCase {
  const { rng } = ctx;
  const role = rng.pick<RoleName>(['json_open', 'json_github', 'form_open', 'xml_open', 'text_open']);
  const pick = rng.int(0, 3);
  const size =
    pick === 0
      ? rng.int(PLAN_LIMIT - 64, PLAN_LIMIT)
      : pick === 1
        ? rng.int(PLAN_LIMIT + 1, MAX_BODY)
        : rng.int(MAX_BODY + 1, 2 * MAX_BODY);
  const body = filler(role, size);
  const expect = size <= PLAN_LIMIT ? ACCEPTED : only(413, 'payload_too_large');
  return bodyRequest(ctx, {
    cls: 'overlong-body',
    what: `${size}-byte body (plan limit ${PLAN_LIMIT}, read ceiling ${MAX_BODY})`,
    role,
    body,
    expect,
  });
}

/** A well-formed body of exactly `size` bytes in the role's format. */
function filler(role: RoleName, size: number): Buffer {
  const [open, close] = role.startsWith('json')
    ? ['{"s":"', '"}']
    : role.startsWith('xml')
      ? ['<r>', '</r>']
      : role.startsWith('form')
        ? ['s=', '']
        : ['', ''];
  return Buffer.concat([Buffer.from(open), Buffer.alloc(size - open.length - close.length, 'a'), Buffer.from(close)]);
}

/** Nesting a depth limit must refuse ("a documented 400/413 and a row"), and shallow nesting it must not. */
const refusedDeep: Expectation = { statuses: [400, 413] };

export function deepNesting(ctx: Ctx): HostileCase {
  const { rng } = ctx;
  const shallow = rng.bool(0.25);
  const depth = shallow ? rng.int(1, 16) : Math.round(Math.exp(rng.next() * Math.log(100))) * 1000; // 1,000 … 100,000, log-uniform
  const kind = rng.int(0, 4);
  if (kind <= 1) {
    // arrays: 2 bytes a level (≤ 200 KB at 100,000); objects: 6 bytes a level, capped to stay under the plan limit
    const objects = kind === 1;
    const d = objects ? Math.min(depth, 40000) : depth;
    const body = Buffer.from(objects ? `${'{"a":'.repeat(d)}1${'}'.repeat(d)}` : `${'['.repeat(d)}${']'.repeat(d)}`);
    return bodyRequest(ctx, {
      cls: 'deep-nesting',
      what: `JSON ${objects ? 'objects' : 'arrays'} nested ${d} deep`,
      role: rng.pick(JSON_ROLES),
      body,
      expect: shallow ? ACCEPTED : refusedDeep,
    });
  }
  if (kind === 2) {
    // XML is capped at 32 levels (payload-formats.md)
    const d = shallow ? rng.int(1, 32) : rng.int(33, 5000);
    const body = Buffer.from(`${'<a>'.repeat(d)}x${'</a>'.repeat(d)}`);
    return bodyRequest(ctx, {
      cls: 'deep-nesting',
      what: `XML nested ${d} deep`,
      role: rng.pick<RoleName>(['xml_open', 'xml_apikey']),
      body,
      expect: d <= 32 ? ACCEPTED : malformed,
    });
  }
  if (kind === 3) {
    // Base64 JSON in the query: at most 5,000 deep so the URL stays under the header limit
    const d = shallow ? depth : Math.min(depth, 5000);
    const json = Buffer.from(`${'['.repeat(d)}${']'.repeat(d)}`).toString('base64url');
    const role = rng.pick<RoleName>(['b64_open', 'b64_bearer']);
    const param = role === 'b64_open' ? 'd' : 'payload';
    return bodyRequest(ctx, {
      cls: 'deep-nesting',
      what: `Base64 JSON arrays nested ${d} deep`,
      role,
      method: 'GET',
      query: `${param}=${json}`,
      contentType: null,
      body: Buffer.alloc(0),
      expect: shallow ? ACCEPTED : refusedDeep,
    });
  }
  // form names are flat keys: a[b][c]… nested 1,000s deep is one ordinary name
  const name = `a${'[b]'.repeat(rng.int(100, 20000))}`;
  return bodyRequest(ctx, {
    cls: 'deep-nesting',
    what: `form name with ${name.length} bracket characters`,
    role: rng.pick<RoleName>(['form_open', 'form_basic']),
    body: Buffer.from(`${name}=1`),
    expect: ACCEPTED,
  });
}

const WIDE: Expectation = { statuses: [202, 400, 413] };

export function hugeKeyCounts(ctx: Ctx): HostileCase {
  const { rng } = ctx;
  const kind = rng.int(0, 5);
  const n = rng.int(1000, 20000);
  // XML costs about 1 s of CPU per MB of markup (payload-formats.md): fewer elements there
  const xmlN = rng.int(1000, 5000);
  if (kind === 0) {
    const body = Buffer.from(`{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`);
    return bodyRequest(ctx, {
      cls: 'huge-key-counts',
      what: `JSON object with ${n} keys`,
      role: rng.pick(JSON_ROLES),
      body,
      expect: body.length > PLAN_LIMIT ? only(413, 'payload_too_large') : WIDE,
    });
  }
  if (kind === 1) {
    const body = Buffer.from(`{${'"k":1,'.repeat(n)}"k":2}`);
    return bodyRequest(ctx, {
      cls: 'huge-key-counts',
      what: `JSON object with one key repeated ${n} times`,
      role: rng.pick(JSON_ROLES),
      body,
      expect: WIDE,
    });
  }
  if (kind === 2) {
    // the 64-pair limit is for the query formats only (payload-formats.md)
    const body = Buffer.from(Array.from({ length: n }, (_, i) => `f${i % 500}=${i}`).join('&'));
    return bodyRequest(ctx, {
      cls: 'huge-key-counts',
      what: `form body with ${n} pairs`,
      role: rng.pick<RoleName>(['form_open', 'form_basic']),
      body,
      expect: WIDE,
    });
  }
  if (kind === 3) {
    const children = rng.bool();
    const body = Buffer.from(
      children
        ? `<r>${Array.from({ length: xmlN }, (_, i) => `<c${i % 300}>${i}</c${i % 300}>`).join('')}</r>`
        : `<r ${Array.from({ length: xmlN }, (_, i) => `a${i}="${i}"`).join(' ')}/>`,
    );
    return bodyRequest(ctx, {
      cls: 'huge-key-counts',
      what: `XML with ${xmlN} ${children ? 'children' : 'attributes'}`,
      role: rng.pick<RoleName>(['xml_open', 'xml_apikey']),
      body,
      expect: { statuses: [202, 400, 413] },
    });
  }
  if (kind === 4) {
    const body = Buffer.from(`<r ${'a="1" '.repeat(rng.int(2, 50))}/>`);
    return bodyRequest(ctx, {
      cls: 'huge-key-counts',
      what: 'XML with a repeated attribute (not well-formed)',
      role: 'xml_open',
      body,
      expect: malformed,
    });
  }
  // more than 64 pairs in a query format, small enough for the header limit
  const pairs = rng.int(65, 1500);
  const role = rng.pick<RoleName>(['query_open', 'b64_open']);
  return bodyRequest(ctx, {
    cls: 'huge-key-counts',
    what: `query with ${pairs} pairs`,
    role,
    method: 'GET',
    query: Array.from({ length: pairs }, (_, i) => `q${i}=1`).join('&'),
    contentType: null,
    body: Buffer.alloc(0),
    expect: only(400, 'malformed_query_param'),
  });
}

/**
 * Documents that declare a DOCTYPE or ENTITY, including the bypasses: `<!--` or
 * `<![CDATA[` inside an attribute value or processing instruction before the DOCTYPE, which a
 * scanner that skips comments and CDATA sections takes for the start of one.
 */
const DOCTYPE_BODIES: Array<(e: string, v: string) => string> = [
  (e, v) => `<!DOCTYPE r [<!ENTITY ${e} "${v}">]><r>&${e};</r>`,
  (e, v) => `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY ${e} "${v}">]><r>&${e};</r>`,
  (e) => `<!DOCTYPE r [<!ENTITY ${e} SYSTEM "file:///etc/passwd">]><r>&${e};</r>`,
  (e) => `<!DOCTYPE r [<!ENTITY % ${e} SYSTEM "http://127.0.0.1:9/x.dtd"> %${e};]><r/>`,
  (e) => `<!DOCTYPE r SYSTEM "http://127.0.0.1:9/${e}.dtd"><r/>`,
  (e, v) =>
    `<!DOCTYPE r [<!ENTITY a "${v}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY ${e} "&b;&b;&b;&b;&b;&b;&b;&b;">]><r>&${e};</r>`,
  (e, v) => `<!doctype r [<!entity ${e} "${v}">]><r>&${e};</r>`,
  (e, v) => `<?xml-stylesheet href="<!--"?><!DOCTYPE r [<!ENTITY ${e} "${v}">]><!-- --><r>&${e};</r>`,
  (e, v) => `<?pi a="<![CDATA["?><!DOCTYPE r [<!ENTITY ${e} "${v}">]><!-- ]]> --><r>&${e};</r>`,
  (e, v) => `<?xml version="1.0" encoding="<!--"?><!DOCTYPE r [<!ENTITY ${e} "${v}">]><r a="-->">&${e};</r>`,
  (e, v) => `<r a="<!--"><!DOCTYPE r [<!ENTITY ${e} "${v}">]><b>&${e};</b>--></r>`,
  (e, v) => `<r a="<![CDATA["><!DOCTYPE r [<!ENTITY ${e} "${v}">]><b>&${e};</b>]]></r>`,
  (e, v) => `<r a='<!--'><!DOCTYPE r [<!ENTITY ${e} "${v}">]><b>&${e};</b><c d='-->'/></r>`,
  (e, v) => `<?pi <!-- ?><!DOCTYPE r [<!ENTITY ${e} "${v}">]><r b="-->">&${e};</r>`,
  (e, v) => `<r/><!DOCTYPE r [<!ENTITY ${e} "${v}">]>`,
  (e, v) => `\ufeff<!DOCTYPE r [<!ENTITY ${e} "${v}">]><r>&${e};</r>`,
  (e, v) => `<!DOCTYPE r [<!ATTLIST r a CDATA "<!--"><!ENTITY ${e} "${v}">]><r>&${e};</r><!-- -->`,
];

/** Look-alikes that declare nothing: DOCTYPE text inside real comments and CDATA is harmless. */
const HARMLESS_XML = [
  '<r><![CDATA[<!DOCTYPE x [<!ENTITY e "v">]>]]></r>',
  '<r><!-- <!DOCTYPE x> --><a>1</a></r>',
  '<r a="&lt;!DOCTYPE x&gt;">t</r>',
  '<r>&amp;&lt;&gt;&quot;&apos;&#65;&#x42;</r>',
];
/** Entities the parser does not know, or character references out of range: refused or kept as text, never a 5xx. */
const ODD_REFERENCES = [
  '<r>&undefined;</r>',
  '<r>&#x110000;</r>',
  '<r>&#0;</r>',
  '<r>&#xD800;</r>',
  '<r>&#99999999999;</r>',
  '<r>&;</r>',
  '<r>&#;</r>',
  '<r a="&x;"/>',
];

export function xmlEntities(ctx: Ctx): HostileCase {
  const { rng } = ctx;
  const role = rng.pick<RoleName>(['xml_open', 'xml_apikey']);
  const contentType = rng.pick(['application/xml', 'text/xml', 'Application/XML; charset=utf-8']);
  const pick = rng.int(0, 9);
  if (pick <= 6) {
    const i = rng.int(0, DOCTYPE_BODIES.length - 1);
    const body = Buffer.from(DOCTYPE_BODIES[i]!(`e${rng.chars(4)}`, `EXPANDED_${rng.chars(6)}`));
    // described with fixed names, so that failures of one template are counted together
    return bodyRequest(ctx, {
      cls: 'xml-entities-doctype',
      what: `DOCTYPE/ENTITY document #${i}: ${DOCTYPE_BODIES[i]!('e', 'V')}`,
      role,
      contentType,
      body,
      expect: malformed,
    });
  }
  if (pick === 7) {
    const body = Buffer.from(rng.pick(HARMLESS_XML));
    return bodyRequest(ctx, {
      cls: 'xml-entities-doctype',
      what: `harmless look-alike ${body.toString('utf8')}`,
      role,
      contentType,
      body,
      expect: ACCEPTED,
    });
  }
  const body = Buffer.from(rng.pick(ODD_REFERENCES));
  return bodyRequest(ctx, {
    cls: 'xml-entities-doctype',
    what: `odd reference ${body.toString('utf8')}`,
    role,
    contentType,
    body,
    expect: { statuses: [202, 400], codes: ['malformed_payload'] },
  });
}

const B64_INVALID = [
  '!!!!',
  'ab+cd',
  'abc*',
  'a',
  'abcde',
  'abc==',
  'ab=',
  'a===',
  '=abc',
  'ab==cd',
  '%C3%A9%C3%A9',
  'ab%20cd',
  'ab%0Acd',
  '====',
  'ab=c',
];

export function badBase64(ctx: Ctx): HostileCase {
  const { rng } = ctx;
  const role = rng.pick<RoleName>(['b64_open', 'b64_bearer']);
  const param = role === 'b64_open' ? 'd' : 'payload';
  const method = rng.pick(['GET', 'POST']);
  const around = (value: string): string =>
    [rng.bool() ? 'x=1' : '', `${param}=${value}`, rng.bool() ? 'y=%ZZ' : ''].filter(Boolean).join('&');
  const pick = rng.int(0, 6);
  let query: string;
  let what: string;
  let expect: Expectation;
  const bad = only(400, 'malformed_query_param');
  if (pick <= 1) {
    const v = rng.pick(B64_INVALID);
    query = around(v);
    what = `invalid Base64 ${JSON.stringify(v)}`;
    expect = bad;
  } else if (pick === 2) {
    const bytes = rng.bool()
      ? rng.bytes(rng.int(1, 300))
      : Buffer.from(rng.pick(['not json', '{"a":', "{'a':1}", '\xff\xfe', '']));
    query = around(encodeURIComponent(bytes.toString('base64')));
    what = `Base64 of ${bytes.length} bytes that are not one JSON document`;
    expect = jsonValid(bytes) ? ACCEPTED : bad;
  } else if (pick === 3) {
    query = rng.bool() ? 'x=1' : '';
    what = 'the required parameter missing';
    expect = bad;
  } else {
    const bytes = Buffer.from(JSON.stringify(randomJson(rng)));
    const std = bytes.toString('base64');
    const style = rng.int(0, 3);
    const value =
      style === 0
        ? std
        : style === 1
          ? bytes.toString('base64url')
          : style === 2
            ? std.replace(/=/g, '%3D')
            : std.replace(/=+$/, '');
    query = around(value);
    what = `valid Base64 JSON (style ${style})`;
    expect = ACCEPTED;
  }
  return bodyRequest(ctx, {
    cls: 'bad-base64',
    what,
    role,
    method,
    query,
    contentType: method === 'GET' ? null : rng.pick(['text/plain', 'multipart/form-data; boundary=x']),
    body: method === 'GET' ? Buffer.alloc(0) : Buffer.from('ignored body'),
    expect,
  });
}

/**
 * `__proto__`, `constructor` and `prototype` as keys in every payload format. They are ordinary
 * keys (payload-formats.md); the canary endpoint, whose field rule requires
 * `hostile_polluted`, must still refuse `{"__proto__":{"hostile_polluted":…}}`: the key is the
 * payload's own, never Object.prototype's.
 */
export function protoKeys(ctx: Ctx): HostileCase {
  const { rng } = ctx;
  const v = `yes_${rng.chars(4)}`;
  const pick = rng.int(0, 7);
  if (pick === 0 || pick === 1) {
    const json = rng.pick([
      `{"__proto__":{"hostile_polluted":"${v}"}}`,
      `{"constructor":{"prototype":{"hostile_polluted":"${v}"}}}`,
      `{"prototype":{"hostile_polluted":"${v}"},"__proto__":null}`,
      `[{"__proto__":{"hostile_polluted":"${v}"}},{"__proto__":[]}]`,
      `{"a":{"__proto__":{"__proto__":{"hostile_polluted":"${v}"}}},"__proto__":1,"__proto__":2}`,
    ]);
    // the canary's rule requires a field the payload never has as its own
    const canary = pick === 1;
    const role: RoleName = canary ? 'json_canary' : rng.pick(JSON_ROLES);
    return bodyRequest(ctx, {
      cls: 'proto-keys',
      what: `JSON ${json}`,
      role,
      body: Buffer.from(json),
      expect: canary ? only(400, 'field_validation_failed') : ACCEPTED,
    });
  }
  if (pick === 2) {
    const form = `__proto__=${v}&constructor=${v}&prototype=${v}&__proto__[hostile_polluted]=${v}&constructor[prototype][hostile_polluted]=${v}&__proto__.hostile_polluted=${v}&toString=1&hasOwnProperty=1`;
    return bodyRequest(ctx, {
      cls: 'proto-keys',
      what: `form ${form}`,
      role: rng.pick<RoleName>(['form_open', 'form_basic']),
      body: Buffer.from(form),
      expect: ACCEPTED,
    });
  }
  if (pick === 3) {
    const query = `__proto__=${v}&constructor=${v}&prototype=${v}&__proto__[hostile_polluted]=${v}&constructor.prototype.hostile_polluted=${v}&valueOf=1`;
    return bodyRequest(ctx, {
      cls: 'proto-keys',
      what: `query ${query}`,
      role: 'query_open',
      method: 'GET',
      query,
      contentType: null,
      body: Buffer.alloc(0),
      expect: ACCEPTED,
    });
  }
  if (pick === 4) {
    const xml = rng.pick([
      `<__proto__ hostile_polluted="${v}"><hostile_polluted>${v}</hostile_polluted></__proto__>`,
      `<r __proto__="${v}" constructor="${v}"><__proto__><hostile_polluted>${v}</hostile_polluted></__proto__><constructor><prototype><hostile_polluted>${v}</hostile_polluted></prototype></constructor></r>`,
      `<r><prototype>${v}</prototype><toString>${v}</toString></r>`,
    ]);
    // refusing such names is a designed answer too (the XML library guards them)
    return bodyRequest(ctx, {
      cls: 'proto-keys',
      what: `XML ${xml}`,
      role: rng.pick<RoleName>(['xml_open', 'xml_apikey']),
      body: Buffer.from(xml),
      expect: { statuses: [202, 400], codes: ['malformed_payload'] },
    });
  }
  if (pick === 5) {
    return bodyRequest(ctx, {
      cls: 'proto-keys',
      what: 'text __proto__',
      role: 'text_open',
      body: Buffer.from(`__proto__[hostile_polluted]=${v}\nconstructor.prototype`),
      expect: ACCEPTED,
    });
  }
  if (pick === 6) {
    const json = Buffer.from(`{"__proto__":{"hostile_polluted":"${v}"},"constructor":{"prototype":{"x":1}}}`).toString(
      'base64url',
    );
    const role = rng.pick<RoleName>(['b64_open', 'b64_bearer']);
    return bodyRequest(ctx, {
      cls: 'proto-keys',
      what: 'Base64 JSON with __proto__',
      role,
      method: 'GET',
      query: `${role === 'b64_open' ? 'd' : 'payload'}=${json}`,
      contentType: null,
      body: Buffer.alloc(0),
      expect: ACCEPTED,
    });
  }
  const names = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__'];
  const headers = names.filter(() => rng.bool(0.7)).map((n) => `${n}: ${v}`);
  return bodyRequest(ctx, {
    cls: 'proto-keys',
    what: `headers ${headers.join('; ')}`,
    role: rng.pick<RoleName>(['json_open', 'json_bearer']),
    body: randomJsonBytes(rng),
    headers,
    expect: ACCEPTED,
  });
}
