import { RelayApiError, createRelayClient, errorOf, must } from '@relay/client';
import { namesShown } from './lib/display';

export { RelayApiError, must };

let csrfToken = '';
let onSignedOut: () => void = () => undefined;

/** The session's CSRF token, sent on every change (docs/dashboard.md). */
export function useSessionToken(token: string, signedOut: () => void): void {
  csrfToken = token;
  onSignedOut = signedOut;
}

/**
 * The management API, typed by its OpenAPI document (`@relay/client`, docs/client.md): same
 * origin with the session cookie. Every method but GET carries the CSRF header; a 401 means the
 * session ended (signed out elsewhere, expired, key revoked). Names in every answer are shown
 * escaped (lib/display.ts namesShown).
 */
export const relay = createRelayClient({ baseUrl: location.origin, credentials: 'same-origin' });
relay.use({
  onRequest({ request }) {
    if (request.method !== 'GET') request.headers.set('x-relay-csrf', csrfToken);
    return request;
  },
  async onResponse({ response }) {
    if (response.status === 401) onSignedOut();
    if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('application/json')) return response;
    const shown = JSON.stringify(namesShown(await response.clone().json()));
    return new Response(shown, { status: response.status, statusText: response.statusText, headers: response.headers });
  },
});

/** Who is signed in (`/session`, docs/dashboard.md): the session routes are the dashboard's own, not in the API's document. */
export interface Me {
  account_id: string;
  /** a session signed in with an API key */
  key_prefix?: string;
  /** a member's session, signed in with the account's identity provider (docs/members.md) */
  member?: { id: string; email: string; name: string | null };
  role: string;
  csrf_token: string;
  expires_at: string;
}

/** `GET /session` (who is signed in), `POST /session` (sign in with a key), `DELETE /session` (sign out). */
export async function session(method: 'GET' | 'POST' | 'DELETE', body?: { api_key: string }): Promise<Me> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-relay-csrf'] = csrfToken;
  let res: Response;
  try {
    res = await fetch('/session', {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new RelayApiError(0, 'network', 'The management API could not be reached.');
  }
  const data: unknown = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw errorOf(res, data);
  return data as Me;
}

export function messageOf(err: unknown): string {
  if (err instanceof RelayApiError) {
    if (err.code === 'network') return 'The management API could not be reached.';
    return err.status === 403 && err.code !== 'csrf_failed' ? `Not allowed for your role: ${err.message}` : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}
