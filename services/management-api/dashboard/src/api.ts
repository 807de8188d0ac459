import type { FieldError } from './lib/fields';

/** An API answer that was not a success: its status, `code`, message and field errors. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

let csrfToken = '';
let onSignedOut: () => void = () => undefined;

/** The session's CSRF token, sent on every change (docs/dashboard.md). */
export function useSessionToken(token: string, signedOut: () => void): void {
  csrfToken = token;
  onSignedOut = signedOut;
}

/**
 * Same-origin JSON calls with the session cookie. Every method but GET carries the CSRF header;
 * a 401 means the session ended (signed out elsewhere, expired, key revoked).
 */
export async function api<T = unknown>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-relay-csrf'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, { method, headers, credentials: 'same-origin', body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  } catch {
    throw new ApiFailure(0, 'network', 'The management API could not be reached.');
  }
  if (res.status === 401 && !path.startsWith('/session')) onSignedOut();
  if (res.status === 204) return undefined as T;
  const data = (await res.json().catch(() => null)) as { code?: string; message?: string; errors?: FieldError[] } | null;
  if (!res.ok) throw new ApiFailure(res.status, data?.code ?? `http_${res.status}`, data?.message ?? res.statusText, data?.errors ?? []);
  return data as T;
}

export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function messageOf(err: unknown): string {
  if (err instanceof ApiFailure) return err.status === 403 && err.code !== 'csrf_failed' ? `Not allowed for your role: ${err.message}` : err.message;
  return err instanceof Error ? err.message : String(err);
}
