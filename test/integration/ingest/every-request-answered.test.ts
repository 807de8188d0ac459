import { eventually } from '../../support/infra';
import { ODD_SEGMENTS, UNDECODABLE_SEGMENTS } from '../../support/malformed-segments';
import { IngestHarness } from './harness';
import type { GatewayInstance } from './harness';
import { send } from './http';
import { head, rawRequest, uploadWhole } from './raw-http';

/*
 * Every request gets a designed answer — never silence, never a 500 for a sender's
 * mistake — on the real app and server, with the real broker, Redis and store.
 */
let h: IngestHarness;
let gw: GatewayInstance;
let behindProxy: GatewayInstance;
let account: string;

beforeAll(async () => {
  h = await IngestHarness.start('answered');
  gw = await h.gateway();
  behindProxy = await h.gateway({ trustProxyHops: 1 });
  account = await h.account();
});

afterAll(async () => {
  await h?.stop();
});

const errorLines = (g: GatewayInstance) => g.logs().filter((l) => l.level === 'error');

describe('item 2: header values a message cannot carry are refused up front, with a row', () => {
  it('a Content-Type over 256 characters → 400 malformed_header and a MALFORMED_HEADER row; nothing published', async () => {
    const id = await h.endpoint(account);
    const res = await send(gw, id, {
      headers: { 'content-type': `application/json; x=${'y'.repeat(300)}` },
      body: '{"a":1}',
    });
    expect([res.status, res.json.code]).toEqual([400, 'malformed_header']);
    expect((await h.waitForRows(id, 1)).map((r) => r.outcome)).toEqual(['MALFORMED_HEADER']);
    expect(h.deliveriesOf(id)).toEqual([]);
  });

  it('TRUST_PROXY_HOPS=1 and an X-Forwarded-For client entry over 64 characters → 400 malformed_header and a row with 64 characters of it', async () => {
    const id = await h.endpoint(account);
    const entry = 'z'.repeat(100);
    const res = await send(behindProxy, id, { headers: { 'x-forwarded-for': entry } });
    expect([res.status, res.json.code]).toEqual([400, 'malformed_header']);
    expect((await h.waitForRows(id, 1)).map((r) => [r.outcome, r.source_ip])).toEqual([
      ['MALFORMED_HEADER', entry.slice(0, 64)],
    ]);
  });

  it('TRUST_PROXY_HOPS=1 and an X-Forwarded-For client entry that is not an IP → 400; a real address is accepted as the source IP', async () => {
    const id = await h.endpoint(account);
    expect((await send(behindProxy, id, { headers: { 'x-forwarded-for': 'unknown' } })).status).toBe(400);
    expect((await send(behindProxy, id, { headers: { 'x-forwarded-for': '2001:db8::7' } })).status).toBe(202);
    expect((await h.waitForRows(id, 2)).map((r) => [r.outcome, r.source_ip])).toEqual([
      ['MALFORMED_HEADER', 'unknown'],
      ['ACCEPTED', '2001:db8::7'],
    ]);
  });

  it('200 such requests on one gateway: every one answered (none left hanging), no error logged', async () => {
    const id = await h.endpoint(account);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        rawRequest(gw.url, {
          pieces: [
            head('POST', `/relay/${id}`, {
              'Content-Type': `application/json;${'p'.repeat(300 + i)}`,
              'Content-Length': 2,
            }),
            '{}',
          ],
          closeWaitMs: 0,
        }),
      ),
    );
    expect(new Set(answers.map((a) => `${a.status} ${a.json.code}`))).toEqual(new Set(['400 malformed_header']));
    expect(errorLines(gw)).toEqual([]);
  });
});

describe('item 7: bad percent-encoding in the path', () => {
  /** POST /relay/<segment>, sent byte for byte (fetch would normalise `..` and `%2e%2e`) */
  const post = (segment: string) =>
    rawRequest(gw.url, {
      pieces: [head('POST', `/relay/${segment}`, { 'Content-Type': 'application/json', 'Content-Length': 2 }), '{}'],
      closeWaitMs: 0,
    });

  it.each(UNDECODABLE_SEGMENTS)('/relay/%s → 400 malformed_path with no stack trace logged', async (segment) => {
    const res = await post(segment);
    expect([res.status, res.json.code]).toEqual([400, 'malformed_path']);
    expect(errorLines(gw)).toEqual([]);
  });

  it('odd but decodable endpoint ids → a designed 4xx answer with a code, nothing logged as an error', async () => {
    const answers: string[] = [];
    for (const segment of ODD_SEGMENTS) {
      const res = await post(segment);
      answers.push(`${segment.slice(0, 20)} ${res.status} ${typeof res.json?.code}`);
    }
    expect(answers.filter((a) => !/ 4\d\d string$/.test(a))).toEqual([]);
    expect(errorLines(gw)).toEqual([]);
  });

  it('a HEAD with bad percent-encoding gets the same status and no body', async () => {
    const res = await fetch(`${gw.url}/relay/%ZZ`, { method: 'HEAD' });
    expect([res.status, await res.text()]).toEqual([400, '']);
  });
});

describe('item 13: Expect', () => {
  it.each(['', 'foo', 'x-relay-unknown=1'])(
    'Expect: "%s" (not 100-continue) is processed like any request — 202, and Expect is not forwarded',
    async (value) => {
      const id = await h.endpoint(account);
      const res = await rawRequest(gw.url, {
        pieces: [
          head('POST', `/relay/${id}`, {
            'Content-Type': 'application/json',
            'Content-Length': 7,
            Expect: value,
            'X-Keep': 'k',
          }),
          '{"a":1}',
        ],
      });
      expect([res.status, res.json]).toEqual([202, { message: 'Payload received' }]);
      const [delivery] = await eventuallyDelivered(id);
      expect(delivery!.request.headers).toMatchObject({ 'x-keep': 'k' });
      expect(Object.keys(delivery!.request.headers)).not.toContain('expect');
    },
  );

  it('Expect: 100-continue — 100 Continue is sent when the body is read, then 202', async () => {
    const id = await h.endpoint(account);
    const res = await rawRequest(gw.url, {
      pieces: [
        head('POST', `/relay/${id}`, {
          'Content-Type': 'application/json',
          'Content-Length': 2,
          Expect: '100-continue',
        }),
        300,
        '{}',
      ],
    });
    expect([res.status, res.interim]).toEqual([202, [100]]);
  });

  it('Expect: 100-continue to an unknown endpoint — 404 at once, no 100 Continue, so the body is never sent', async () => {
    const res = await rawRequest(gw.url, {
      pieces: [
        head('POST', '/relay/ep_00000000000000000000', {
          'Content-Type': 'application/json',
          'Content-Length': 2,
          Expect: '100-continue',
        }),
      ],
    });
    expect([res.status, res.json.code, res.interim]).toEqual([404, 'endpoint_not_found', []]);
  });
});

describe('item 10: a sender cannot hold a connection with slow headers or a slow body', () => {
  let slow: GatewayInstance;
  beforeAll(async () => {
    slow = await h.gateway({ headersTimeoutMs: 1000, bodyTimeoutMs: 1000 });
  });

  it('a body not complete within BODY_TIMEOUT_MS → 408 request_timeout, a REQUEST_TIMEOUT row, and the connection closed', async () => {
    const id = await h.endpoint(account);
    const res = await rawRequest(slow.url, {
      pieces: [
        head('POST', `/relay/${id}`, { 'Content-Type': 'application/json', 'Content-Length': 100 }),
        '{"a":',
        5000,
        '1}',
      ],
      closeWaitMs: 500,
    });
    expect([res.status, res.json.code, res.headers.connection, res.closed]).toEqual([
      408,
      'request_timeout',
      'close',
      true,
    ]);
    expect((await h.waitForRows(id, 1)).map((r) => r.outcome)).toEqual(['REQUEST_TIMEOUT']);
  });

  it('headers not complete within HEADERS_TIMEOUT_MS → 408 request_timeout (JSON) and the connection closed', async () => {
    const res = await rawRequest(slow.url, {
      pieces: ['POST /relay/ep_00000000000000000000 HTTP/1.1\r\nHost: x\r\n', 5000, 'X-More: 1\r\n\r\n'],
      timeoutMs: 8000,
      closeWaitMs: 500,
    });
    expect([res.status, res.json.code, res.closed]).toEqual([408, 'request_timeout', true]);
  });

  it('a body behind a refusal (unknown endpoint) is not waited for: the answer closes the connection', async () => {
    const res = await rawRequest(slow.url, {
      pieces: [
        head('POST', '/relay/ep_00000000000000000000', {
          'Content-Type': 'application/json',
          'Content-Length': 100000,
        }),
        'x'.repeat(10),
        5000,
      ],
      closeWaitMs: 500,
    });
    expect([res.status, res.headers.connection, res.closed]).toEqual([404, 'close', true]);
  });
});

describe('a refused upload: the sender reads its answer, never a reset (lingering close)', () => {
  // The gateway answers before the body is read (or while reading it) and closes; if it closed
  // with bytes still arriving, the sender's kernel would get a reset and drop the unread answer.
  const upload = (id: string, headers: Record<string, string | number>, body: Buffer) =>
    uploadWhole(
      gw.url,
      head('POST', `/relay/${id}`, { 'Content-Type': 'application/json', Connection: 'close', ...headers }),
      body,
    );

  it('a declared Content-Length over the read ceiling (32 MiB, more than the kernel buffers hold) → 413 read whole, the upload written to its end without EPIPE or ECONNRESET, then closed', async () => {
    const id = await h.endpoint(account);
    const r = await upload(id, { 'Content-Length': 32 * 1048576 }, Buffer.alloc(32 * 1048576, 'a'));
    expect([r.received.slice(0, 12), r.error, r.closed]).toEqual(['HTTP/1.1 413', null, true]);
    expect(r.received).toContain('Connection: close');
  });

  it('a chunked body that passes the read ceiling while it is read → 413, the rest written without a reset, then closed', async () => {
    const id = await h.endpoint(account);
    const chunk = `10000\r\n${'a'.repeat(65536)}\r\n`;
    const body = Buffer.from(`${chunk.repeat(512)}0\r\n\r\n`); // 32 MiB: more than the kernel buffers hold
    const r = await upload(id, { 'Transfer-Encoding': 'chunked' }, body);
    expect([r.received.slice(0, 12), r.error, r.closed]).toEqual(['HTTP/1.1 413', null, true]);
  });

  it("a request line Node's parser refuses while it still arrives (a 32 MiB query string) → 431, the rest written without a reset, then closed", async () => {
    const id = await h.endpoint(account);
    const line = Buffer.from(`GET /relay/${id}?q=${'v'.repeat(32 * 1048576)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    const r = await uploadWhole(gw.url, '', line);
    expect([r.received.slice(0, 12), r.error, r.closed]).toEqual(['HTTP/1.1 431', null, true]);
  });
});

describe("requests Node's parser refuses get the JSON error shape, not a bare status line", () => {
  it('a header line that is not a header → 400 bad_request', async () => {
    const res = await rawRequest(gw.url, { pieces: ['POST /relay/x HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'] });
    expect([res.status, res.json]).toEqual([400, { code: 'bad_request', message: 'The request is not valid HTTP.' }]);
  });

  it('headers over 16 KB → 431 headers_too_large', async () => {
    const res = await rawRequest(gw.url, { pieces: [head('POST', '/relay/x', { 'X-Big': 'b'.repeat(20000) })] });
    expect([res.status, res.json.code]).toEqual([431, 'headers_too_large']);
  });

  it('CONNECT (which Node would close unanswered) → 405 method_not_allowed, with Allow naming the methods an endpoint can accept', async () => {
    const res = await rawRequest(gw.url, {
      pieces: ['CONNECT /relay/ep_00000000000000000000 HTTP/1.1\r\nHost: x\r\n\r\n'],
    });
    expect([res.status, res.json.code, res.headers.allow]).toEqual([
      405,
      'method_not_allowed',
      'POST, PUT, PATCH, DELETE, GET, HEAD',
    ]);
  });

  it('an HTTP/1.1 request without Host → 400 bad_request in the JSON shape (RFC 9112 §3.2), not a bare status line', async () => {
    const res = await rawRequest(gw.url, {
      pieces: [
        'POST /relay/ep_00000000000000000000 HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
      ],
    });
    expect([res.status, res.json]).toEqual([
      400,
      { code: 'bad_request', message: 'An HTTP/1.1 request must carry a Host header.' },
    ]);
  });

  it.each(['get', 'FOO'])('a method HTTP does not define (%s) → 400 bad_request', async (method) => {
    const res = await rawRequest(gw.url, { pieces: [`${method} /relay/x HTTP/1.1\r\nHost: x\r\n\r\n`] });
    expect([res.status, res.json.code]).toEqual([400, 'bad_request']);
  });

  it('a Content-Length that is not a number → 400 bad_request', async () => {
    const res = await rawRequest(gw.url, { pieces: [head('POST', '/relay/x', { 'Content-Length': 'ten' })] });
    expect([res.status, res.json.code]).toEqual([400, 'bad_request']);
  });
});

function eventuallyDelivered(endpointId: string) {
  return eventually(
    async () => h.deliveriesOf(endpointId).length > 0 && h.deliveriesOf(endpointId),
    5000,
    'a delivery',
  );
}

describe('item 6: a DOCTYPE hidden behind a comment or CDATA opener in an attribute value', () => {
  it.each([
    ['<!-- in an attribute', '<r a="<!--"><!DOCTYPE r [<!ENTITY x "EXPANDED">]><c>&x;</c><d b="-->"/></r>'],
    [
      '<![CDATA[ in an attribute',
      `<?xml version="1.0" x='<![CDATA['?><!DOCTYPE r [<!ENTITY x "EXPANDED">]><r><c>&x;</c><d b=']]>'/></r>`,
    ],
  ])('%s → 400 malformed_payload with a row; nothing published', async (_case, xml) => {
    const id = await h.endpoint(account, { payload_format: 'xml' });
    const res = await send(gw, id, { headers: { 'content-type': 'application/xml' }, body: xml });
    expect([res.status, res.json.code]).toEqual([400, 'malformed_payload']);
    expect((await h.waitForRows(id, 1)).map((r) => r.outcome)).toEqual(['MALFORMED_PAYLOAD']);
    expect(h.deliveriesOf(id)).toEqual([]);
  });
});

describe('payload depth and field limits at ingest, with a row', () => {
  it('JSON nested 100,000 deep → 400 malformed_payload and a MALFORMED_PAYLOAD row; nothing published', async () => {
    const id = await h.endpoint(await h.account({ payload_limit_bytes: 1048576 }));
    const res = await send(gw, id, { body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` });
    expect([res.status, res.json.code]).toEqual([400, 'malformed_payload']);
    expect(res.json.message).toMatch(/nested deeper than 64 levels/);
    expect((await h.waitForRows(id, 1)).map((r) => r.outcome)).toEqual(['MALFORMED_PAYLOAD']);
    expect(h.deliveriesOf(id)).toEqual([]);
  });

  it('Base64 JSON nested 65 deep → 400 malformed_query_param with a row', async () => {
    const id = await h.endpoint(account, {
      payload_format: 'query_base64_json',
      methods: ['GET'],
      query_param_name: 'p',
    });
    const deep = Buffer.from(`${'['.repeat(65)}${']'.repeat(65)}`).toString('base64');
    const res = await send(gw, id, { method: 'GET', query: `p=${encodeURIComponent(deep)}` });
    expect([res.status, res.json.code]).toEqual([400, 'malformed_query_param']);
    expect((await h.waitForRows(id, 1)).map((r) => r.outcome)).toEqual(['MALFORMED_QUERY_PARAM']);
  });

  it('a form body of 1,001 fields → 400 malformed_payload with a row', async () => {
    const id = await h.endpoint(account, { payload_format: 'form' });
    const body = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&');
    const res = await send(gw, id, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect([res.status, res.json.code]).toEqual([400, 'malformed_payload']);
    expect((await h.waitForRows(id, 1)).map((r) => r.outcome)).toEqual(['MALFORMED_PAYLOAD']);
  });
});
