import { issueApiKey } from '../../../services/management-api/src/adapters/api-keys';
import { startStack } from '../stack';
import type { Stack } from '../stack';
import { modelsOf } from '../../support/store-models';

/**
 * The dashboard's session rules over HTTP against the management API process (docs/dashboard.md
 * "Security of the session"): a cookie that holds no key, HttpOnly and SameSite=Strict (Secure
 * over https); writes need the CSRF token and the dashboard's own origin; sign-out and a revoked
 * key end the session at once; the page is served with its CSP.
 */
let stack: Stack;
let base: string;

beforeAll(async () => {
  stack = await startStack('dashsession', { only: ['management-api'] });
  base = stack.services['management-api']!.url;
});

afterAll(async () => {
  await stack?.stop();
});

interface Signed {
  cookie: string;
  setCookie: string;
  csrf: string;
  body: Record<string, unknown>;
}

async function signIn(key = stack.apiKey, headers: Record<string, string> = {}): Promise<Signed> {
  const res = await fetch(`${base}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ api_key: key }),
  });
  expect(res.status).toBe(201);
  const setCookie = res.headers.get('set-cookie') ?? '';
  const body = (await res.json()) as Record<string, unknown>;
  return { cookie: setCookie.split(';')[0]!, setCookie, csrf: String(body.csrf_token), body };
}

const call = (path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
  fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

describe('dashboard page', () => {
  it('is served under / with a CSP that allows only its own origin, and hashed assets cached for good', async () => {
    const res = await call('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const js = await call(asset);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toContain('immutable');
  });

  it('serves the page and its assets compressed to a client that accepts it, and the JSON API never', async () => {
    const gzip = { headers: { 'accept-encoding': 'gzip' } };
    const html = await (await call('/', gzip)).text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const js = await call(asset, gzip);
    expect([js.status, js.headers.get('content-encoding'), js.headers.get('vary')]).toEqual([
      200,
      'gzip',
      'Accept-Encoding',
    ]);
    expect(await js.text()).toContain('/v1/openapi.json'); // fetch undoes the gzip: the script as built
    expect(
      (await call(asset, { headers: { 'accept-encoding': 'identity' } })).headers.get('content-encoding'),
    ).toBeNull();
    const api = await call('/v1/endpoints', {
      headers: { authorization: `Bearer ${stack.apiKey}`, 'accept-encoding': 'gzip' },
    });
    expect([api.status, api.headers.get('content-encoding')]).toEqual([200, null]);
  });

  it('leaves the JSON API as it was: unknown /v1 paths are JSON 404s, bearer keys work without a session', async () => {
    const missing = await call('/v1/nothing-here', { headers: { authorization: `Bearer ${stack.apiKey}` } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });
    expect((await call('/v1/endpoints', { headers: { authorization: `Bearer ${stack.apiKey}` } })).status).toBe(200);
  });
});

describe('sign-in', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie that holds a random id, never the key', async () => {
    const s = await signIn();
    expect(s.setCookie).toMatch(/^relay_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    expect(s.setCookie).not.toContain(stack.apiKey);
    expect(s.body).toMatchObject({ account_id: stack.accountId, key_prefix: stack.apiKey.slice(0, 7), role: 'owner' });
    expect(JSON.stringify(s.body)).not.toContain(stack.apiKey);
    // Redis holds the key sealed, under a digest of the id: a dump gives neither a key nor a cookie
    const keys = await stack.redis.keys(`${stack.namespace}:session:*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) {
      const stored = (await stack.redis.get(k)) ?? '';
      expect(stored).not.toContain(stack.apiKey);
      expect(k).not.toContain(s.cookie.split('=')[1]!);
      expect(await stack.redis.pttl(k)).toBeGreaterThan(0);
    }
  });

  it('marks the cookie Secure when the browser reached the API over https (TLS-terminating proxy)', async () => {
    const s = await signIn(stack.apiKey, { 'x-forwarded-proto': 'https' });
    expect(s.setCookie).toMatch(/; Secure$/);
  });

  it('refuses an unknown key with 401 and a malformed body with 400 at the api_key field', async () => {
    const bad = await call('/session', { method: 'POST', body: { api_key: 'rk_not_a_key' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('set-cookie')).toBeNull();
    const malformed = await call('/session', { method: 'POST', body: { key: 'x' } });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'api_key' }] });
  });

  it('refuses a sign-in posted from another site (login CSRF)', async () => {
    const res = await call('/session', {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      body: { api_key: stack.apiKey },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'csrf_failed' });
  });
});

describe('requests made with the session cookie', () => {
  it('reads with the cookie alone, as the key would', async () => {
    const s = await signIn();
    const res = await call('/v1/endpoints', { headers: { cookie: s.cookie } });
    expect(res.status).toBe(200);
    const who = await call('/session', { headers: { cookie: s.cookie } });
    expect(await who.json()).toMatchObject({ account_id: stack.accountId, csrf_token: s.csrf });
  });

  it('refuses a write without the CSRF token, with a wrong one, from another origin, or labelled cross-site', async () => {
    const s = await signIn();
    const origin = base;
    const attempts: Array<Record<string, string>> = [
      { cookie: s.cookie, origin },
      { cookie: s.cookie, origin, 'x-relay-csrf': `${s.csrf.slice(0, -1)}x` },
      { cookie: s.cookie, origin: 'https://evil.example', 'x-relay-csrf': s.csrf },
      { cookie: s.cookie, 'sec-fetch-site': 'cross-site', 'x-relay-csrf': s.csrf },
    ];
    for (const headers of attempts) {
      const res = await call('/v1/endpoints', { method: 'POST', headers, body: { name: 'csrf-victim' } });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'csrf_failed' });
    }
    const list = (await (await call('/v1/endpoints', { headers: { cookie: s.cookie } })).json()) as {
      data: Array<{ name: string }>;
    };
    expect(list.data.map((e) => e.name)).not.toContain('csrf-victim');
  });

  it('accepts a write with the token from the same origin, audited under the key like a bearer call', async () => {
    const s = await signIn();
    const headers = { cookie: s.cookie, origin: base, 'sec-fetch-site': 'same-origin', 'x-relay-csrf': s.csrf };
    const created = await call('/v1/endpoints', { method: 'POST', headers, body: { name: 'from-the-dashboard' } });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    expect((await call(`/v1/endpoints/${id}/pause`, { method: 'POST', headers })).status).toBe(200);
    const audit = (await (await call(`/v1/endpoints/${id}/audit`, { headers })).json()) as {
      data: Array<{ action: string; actor: string }>;
    };
    expect(audit.data[0]).toMatchObject({ action: 'paused', actor: stack.apiKey.slice(0, 7) });
  });

  it('ends with sign-out: the cookie is cleared and the old id no longer works', async () => {
    const s = await signIn();
    const out = await call('/session', { method: 'DELETE', headers: { cookie: s.cookie, origin: base } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^relay_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0/);
    expect((await call('/v1/endpoints', { headers: { cookie: s.cookie } })).status).toBe(401);
    expect((await call('/session', { headers: { cookie: s.cookie } })).status).toBe(401);
  });

  it('ends at once when its key is revoked', async () => {
    const key = await issueApiKey(stack.store, stack.accountId);
    const s = await signIn(key);
    expect((await call('/v1/endpoints', { headers: { cookie: s.cookie } })).status).toBe(200);
    await modelsOf(stack.store).apiKeys.deleteOne({ prefix: key.slice(0, 7), account_id: stack.accountId });
    expect((await call('/v1/endpoints', { headers: { cookie: s.cookie } })).status).toBe(401);
    expect((await call('/session', { headers: { cookie: s.cookie } })).status).toBe(401);
  });

  it('ignores a forged or unknown session id (401, as without a cookie)', async () => {
    for (const cookie of [
      'relay_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'relay_session=../../etc',
      'relay_session=',
    ]) {
      expect((await call('/v1/endpoints', { headers: { cookie } })).status).toBe(401);
    }
  });
});
