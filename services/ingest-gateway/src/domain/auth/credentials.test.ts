import type { InboundAuthSetting } from '@relay/endpoints';
import type { InboundRequest } from './request';
import { verifyInbound } from './verify';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const req = (headers: Record<string, string | string[]>): InboundRequest => ({
  method: 'POST',
  url: 'https://relay.example/relay/ep_1',
  headers,
  rawBody: Buffer.from('{}'),
});
const basic = (user: string, password: string, scheme = 'Basic'): string =>
  `${scheme} ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const BASIC: InboundAuthSetting = {
  type: 'BASIC',
  credentials: [
    { username: 'sender', password: 'old-password' },
    { username: 'sender', password: 'new:password' },
  ],
};
const BEARER: InboundAuthSetting = { type: 'BEARER', tokens: ['tok_current_0123456789', 'tok_next_0123456789'] };
const API_KEY: InboundAuthSetting = { type: 'API_KEY', header: 'X-API-Key', keys: ['key-current', 'key-next'] };
const OK = { ok: true };

// Spec "Authentication / Inbound": what the sender sends per type; a failure is 401 AUTH_FAILED.
test.each([
  ['NONE: any request passes, with or without credentials', { type: 'NONE' } as InboundAuthSetting, {}, OK],
  ['BASIC: the first credential is accepted', BASIC, { authorization: basic('sender', 'old-password') }, OK],
  [
    'BASIC: the second (rotation) credential is accepted, and a password may contain ":"',
    BASIC,
    { authorization: basic('sender', 'new:password') },
    OK,
  ],
  [
    'BASIC: the scheme name is case-insensitive',
    BASIC,
    { authorization: basic('sender', 'old-password', 'basic') },
    OK,
  ],
  [
    'BASIC: a wrong password fails',
    BASIC,
    { authorization: basic('sender', 'Old-password') },
    { ok: false, reason: 'wrong username or password' },
  ],
  [
    'BASIC: a wrong username fails',
    BASIC,
    { authorization: basic('Sender', 'old-password') },
    { ok: false, reason: 'wrong username or password' },
  ],
  ['BASIC: a missing Authorization header fails', BASIC, {}, { ok: false, reason: 'missing Authorization header' }],
  [
    'BASIC: a Bearer credential fails',
    BASIC,
    { authorization: 'Bearer old-password' },
    { ok: false, reason: 'Authorization scheme is not Basic' },
  ],
  [
    'BASIC: credentials without a colon are malformed',
    BASIC,
    { authorization: `Basic ${Buffer.from('sender').toString('base64')}` },
    { ok: false, reason: 'malformed Authorization header' },
  ],
  ['BEARER: the first token is accepted', BEARER, { authorization: 'Bearer tok_current_0123456789' }, OK],
  ['BEARER: the second (rotation) token is accepted', BEARER, { authorization: 'Bearer tok_next_0123456789' }, OK],
  ['BEARER: the scheme name is case-insensitive', BEARER, { authorization: 'bearer tok_current_0123456789' }, OK],
  [
    'BEARER: the token is compared case-sensitively',
    BEARER,
    { authorization: 'Bearer TOK_current_0123456789' },
    { ok: false, reason: 'wrong bearer token' },
  ],
  [
    'BEARER: a token prefix fails',
    BEARER,
    { authorization: 'Bearer tok_current' },
    { ok: false, reason: 'wrong bearer token' },
  ],
  ['BEARER: a missing Authorization header fails', BEARER, {}, { ok: false, reason: 'missing Authorization header' }],
  [
    'BEARER: a Basic credential fails',
    BEARER,
    { authorization: basic('a', 'b') },
    { ok: false, reason: 'Authorization scheme is not Bearer' },
  ],
  [
    'BEARER: "Bearer" without a token is malformed',
    BEARER,
    { authorization: 'Bearer ' },
    { ok: false, reason: 'malformed Authorization header' },
  ],
  [
    'API_KEY: header name matches case-insensitively (node lower-cases it)',
    API_KEY,
    { 'x-api-key': 'key-current' },
    OK,
  ],
  ['API_KEY: the second (rotation) key is accepted', API_KEY, { 'x-api-key': 'key-next' }, OK],
  [
    'API_KEY: the value is compared case-sensitively',
    API_KEY,
    { 'x-api-key': 'KEY-current' },
    { ok: false, reason: 'wrong API key' },
  ],
  [
    'API_KEY: the key in another header fails as missing',
    API_KEY,
    { authorization: 'key-current' },
    { ok: false, reason: 'missing X-API-Key header' },
  ],
  [
    'API_KEY: the header repeated with two values fails',
    API_KEY,
    { 'x-api-key': ['key-current', 'key-next'] },
    { ok: false, reason: 'wrong API key' },
  ],
])('%s', (_rule, setting, headers, expected) => {
  expect(verifyInbound(setting, req(headers), NOW)).toEqual(expected);
});

test('a failure reason never contains the presented or stored credential', () => {
  const result = verifyInbound(BEARER, req({ authorization: 'Bearer tok_guess_0123456789' }), NOW);
  expect(JSON.stringify(result)).not.toMatch(/tok_/);
});
