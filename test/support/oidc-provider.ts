import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * The tests' OpenID Provider (test/support/oidc/provider-server.mjs): `oidc-provider` as a
 * process of its own on loopback — the package is ESM only, which Jest's CommonJS runtime cannot
 * load. Ready once its discovery document answers. Each login typed on its page is accepted and
 * becomes `sub` and `email`.
 */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startTestOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const clientId = 'relay-dashboard';
  const clientSecret = 'a-test-client-secret-of-32-characters';
  const child = spawn(process.execPath, [path.join(__dirname, 'oidc', 'provider-server.mjs')], {
    env: {
      PATH: process.env.PATH ?? '',
      OIDC_CLIENT: JSON.stringify({ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri] }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const issuer = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    child.once('exit', (code) => reject(new Error(`the OIDC provider exited (${code}): ${err}`)));
  });
  const discovery = await fetch(`${issuer}/.well-known/openid-configuration`);
  if (discovery.status !== 200) throw new Error(`the OIDC provider's discovery answered ${discovery.status}`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    issuer,
    clientId,
    clientSecret,
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Cookies per origin, as a browser would keep them for these loopback hosts (paths ignored). */
export class CookieJar {
  private readonly byOrigin = new Map<string, Map<string, string>>();
  header(url: string): string {
    return [...(this.byOrigin.get(new URL(url).origin) ?? new Map<string, string>())]
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
  }
  get(url: string, name: string): string | undefined {
    return this.byOrigin.get(new URL(url).origin)?.get(name);
  }
  take(url: string, res: Response): void {
    const origin = new URL(url).origin;
    const jar = this.byOrigin.get(origin) ?? new Map<string, string>();
    this.byOrigin.set(origin, jar);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) jar.delete(name);
      else jar.set(name, value);
    }
  }
}

/**
 * A sign-in as a browser makes it, without one: from `startUrl` (the API's `/session/oidc/start…`)
 * through the provider's login page (as `login`) and consent page, back to the API's callback.
 * Redirects are followed with the jar's cookies; returns the callback's answer (its redirect to
 * the dashboard, with the session cookie in the jar). `tamper` may change the callback URL first.
 */
export async function signInWithoutBrowser(
  startUrl: string,
  login: string,
  jar = new CookieJar(),
  tamper: (callbackUrl: URL) => void = () => undefined,
): Promise<{ callback: Response; jar: CookieJar }> {
  let url = startUrl;
  let init: RequestInit = {};
  for (let step = 0; step < 20; step++) {
    const isCallback = new URL(url).pathname === '/session/oidc/callback';
    if (isCallback) {
      const u = new URL(url);
      tamper(u);
      url = u.href;
    }
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, cookie: jar.header(url) },
    });
    jar.take(url, res);
    if (isCallback) return { callback: res, jar };
    init = {};
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href;
      continue;
    }
    const page = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (res.status !== 200 || !action || !prompt)
      throw new Error(`sign-in stopped at ${url}: ${res.status} ${page.slice(0, 300)}`);
    const form = new URLSearchParams({ prompt, ...(prompt === 'login' ? { login, password: 'any' } : {}) });
    url = new URL(action, url).href;
    init = { method: 'POST', body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('sign-in did not reach the callback in 20 steps');
}
