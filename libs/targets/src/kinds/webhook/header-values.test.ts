import { randomBytes } from 'node:crypto';
import { validateHeaderValue } from 'node:http';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { createSecretBox } from '@relay/secrets';
import { headerValueProblem, isHeaderValue } from './headers';
import { createWebhookKind, TargetConfigError } from './index';
import type { WebhookConfig } from './index';

/*
 * Target settings that end up in a header accept exactly what Node's HTTP
 * client sends — no more (a `€` or U+2028 used to be saved with 201 and then fail every
 * delivery as "transient" for hours), no less.
 */
const box = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
const kind = createWebhookKind({ secrets: box });

function nodeAccepts(value: string): boolean {
  try {
    validateHeaderValue('x-test', value);
    return true;
  } catch {
    return false;
  }
}

describe("header values: the rule is Node's http.validateHeaderValue", () => {
  it('agrees with Node for every UTF-16 code unit (U+0000–U+FFFF) and for astral characters', () => {
    const disagree: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      if (isHeaderValue(`a${ch}b`) !== nodeAccepts(`a${ch}b`)) disagree.push(c.toString(16));
    }
    for (const ch of ['😀', '𝄞']) if (isHeaderValue(ch) !== nodeAccepts(ch)) disagree.push(ch);
    expect(disagree).toEqual([]);
  });

  it.each([
    ['tab', true, 'a\tb'],
    ['printable ASCII', true, 'Token abc-123_~!'],
    ['Latin-1 (sent as one byte)', true, 'café'],
    ['€ (U+20AC)', false, 'price €5'],
    ['U+2028 line separator', false, 'a\u2028b'],
    ['an emoji', false, 'ok 😀'],
    ['CR/LF', false, 'a\r\nX-Injected: 1'],
    ['DEL', false, 'a\u007f'],
  ])('%s: allowed %s', (_n, allowed, value) => {
    expect(isHeaderValue(value)).toBe(allowed);
    expect(nodeAccepts(value)).toBe(allowed);
  });

  it('names the first refused character and where it is, without echoing the value', () => {
    expect(headerValueProblem('price €5')).toBe(
      "contains U+20AC at character 7; a header value may hold only tab, printable ASCII and Latin-1 (U+0020–U+007E, U+0080–U+00FF), what Node's HTTP client sends",
    );
  });
});

describe('saving a webhook target refuses every setting that ends up in a header with a character Node refuses', () => {
  const errorsOf = (input: Record<string, unknown>) => {
    const r = kind.validateConfig({ url: 'https://hooks.example.com/in', ...input });
    return r.ok ? [] : r.errors;
  };

  it.each([
    [
      'a custom header value',
      { custom_headers: [{ name: 'X-Price', value: 'costs €5' }] },
      'config.custom_headers[0].value',
    ],
    [
      'a sensitive custom header value',
      { custom_headers: [{ name: 'X-Secret', value: 'line\u2028sep', sensitive: true }] },
      'config.custom_headers[0].value',
    ],
    ['a Bearer token', { auth: { type: 'bearer', token: 'tok€n' } }, 'config.auth.token'],
    ['an API key', { auth: { type: 'api_key', header: 'X-Api-Key', key: 'key\u2028value' } }, 'config.auth.key'],
  ])('%s', (_n, input, field) => {
    expect(errorsOf(input)).toEqual([
      {
        field,
        message: expect.stringMatching(
          /^(header value|token|key) contains U\+(20AC|2028) at character \d+; a header value may hold only/,
        ),
      },
    ]);
  });

  it('reports each such setting at once, with the others', () => {
    const errors = errorsOf({
      auth: { type: 'api_key', header: 'X-Api-Key', key: 'k€y' },
      custom_headers: [
        { name: 'X-A', value: '€' },
        { name: 'X-B', value: 'fine' },
        { name: 'X-C', value: '\u2028' },
      ],
    });
    expect(errors.map((e) => e.field)).toEqual([
      'config.auth.key',
      'config.custom_headers[0].value',
      'config.custom_headers[2].value',
    ]);
  });

  it('Basic credentials may hold any non-control character: they travel base64-encoded', () => {
    const saved = kind.validateConfig({
      url: 'https://hooks.example.com/in',
      auth: { type: 'basic', username: 'jürgen€', password: 'pa\u00df€' },
    });
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(nodeAccepts(kind.buildRequest(saved.value, delivery()).headers.authorization!)).toBe(true);
  });

  it('Latin-1 values Node sends are accepted', () => {
    expect(errorsOf({ custom_headers: [{ name: 'X-Name', value: 'café' }] })).toEqual([]);
  });
});

describe('a target stored before the rule fails permanently at delivery, not as a retried network error', () => {
  it('a custom header value Node refuses is a TargetConfigError HEADER_INVALID naming the header, not the value', () => {
    const saved = kind.validateConfig({ url: 'https://hooks.example.com/in' });
    if (!saved.ok) throw new Error('invalid');
    const legacy: WebhookConfig = {
      ...saved.value,
      custom_headers: [{ name: 'X-Price', value: 'costs €5', sensitive: false }],
    };
    let thrown: unknown;
    try {
      kind.buildRequest(legacy, delivery());
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(TargetConfigError);
    expect(thrown).toMatchObject({
      code: 'HEADER_INVALID',
      message: expect.stringMatching(/^the x-price header contains U\+20AC/),
    });
    expect((thrown as Error).message).not.toContain('costs');
  });

  it('a sealed API key Node refuses is refused the same way', () => {
    const saved = kind.validateConfig({ url: 'https://hooks.example.com/in' });
    if (!saved.ok) throw new Error('invalid');
    const legacy: WebhookConfig = {
      ...saved.value,
      auth: { type: 'api_key', header: 'X-Api-Key', key: box.encrypt('k\u2028') },
    };
    expect(() => kind.buildRequest(legacy, delivery())).toThrow(expect.objectContaining({ code: 'HEADER_INVALID' }));
  });

  it('a forwarded value Node would refuse is dropped, not sent', () => {
    const saved = kind.validateConfig({ url: 'https://hooks.example.com/in', forward_headers: { mode: 'all' } });
    if (!saved.ok) throw new Error('invalid');
    const headers = kind.buildRequest(saved.value, delivery({ 'x-ok': 'fine', 'x-bad': 'a\u2028b' })).headers;
    expect([headers['x-ok'], headers['x-bad']]).toEqual(['fine', undefined]);
  });
});

function delivery(headers: Record<string, string> = {}): DeliveryMessageV1 {
  return {
    type: 'relay.delivery.v1',
    event_id: 'evt_1',
    delivery_id: 'dlv_1',
    attempt: 1,
    account_id: 'acc',
    endpoint_id: 'ep',
    target_id: 'tg',
    target_kind: 'webhook',
    received_at: '2025-01-02T03:04:00.000Z',
    request: { method: 'POST', source_ip: '203.0.113.9', headers, query: '' },
    payload: { content_type: 'application/json', body_base64: Buffer.from('{}').toString('base64') },
  };
}
