/*
 * The management API calls the thin commands make, behind one small interface: the typed
 * client (@relay/client) can replace `createApi` in this one place. Each failure is an ApiError
 * carrying the API's own `code` and message, which the command prints as they are.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Endpoint {
  id: string;
  name: string;
  [key: string]: unknown;
}

export interface Target {
  id: string;
  kind: string;
  name: string;
  enabled: boolean;
  [key: string]: unknown;
}

export interface ActivityRow {
  id: string;
  endpoint_id: string;
  received_at: string;
  method: string;
  outcome: string;
  status: string;
  last_error: string | null;
  target_count: number;
}

export interface RelayApi {
  listEndpoints(): Promise<Endpoint[]>;
  listTargets(endpointId: string): Promise<Target[]>;
  createTarget(endpointId: string, body: { kind: string; name: string; config?: Record<string, unknown> }): Promise<Target>;
  /** newest first */
  listActivity(query: { endpoint_id?: string; limit?: number }): Promise<ActivityRow[]>;
  /** every target of the event's endpoint, or one */
  resend(eventId: string, targetId?: string): Promise<{ event_id: string; deliveries: Array<{ delivery_id: string; target_id: string; target_kind: string }> }>;
}

export function createApi(baseUrl: string, apiKey: string, fetchImpl: typeof fetch = fetch): RelayApi {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetchImpl(new URL(path, baseUrl), {
        method,
        headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (err) {
      throw new ApiError(0, 'unreachable', `the management API at ${baseUrl} cannot be reached: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`);
    }
    const text = await res.text();
    let parsed: any = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!res.ok) throw new ApiError(res.status, String(parsed?.code ?? `http_${res.status}`), String(parsed?.message ?? `HTTP ${res.status}`));
    return parsed as T;
  };
  const data = <T>(page: { data: T[] }): T[] => page.data;
  const enc = encodeURIComponent;
  return {
    listEndpoints: async () => data(await call<{ data: Endpoint[] }>('GET', '/v1/endpoints')),
    listTargets: async (endpointId) => data(await call<{ data: Target[] }>('GET', `/v1/endpoints/${enc(endpointId)}/targets`)),
    createTarget: (endpointId, body) => call<Target>('POST', `/v1/endpoints/${enc(endpointId)}/targets`, body),
    listActivity: async (query) => {
      const qs = new URLSearchParams();
      if (query.endpoint_id) qs.set('endpoint_id', query.endpoint_id);
      if (query.limit) qs.set('limit', String(query.limit));
      return data(await call<{ data: ActivityRow[] }>('GET', `/v1/activity?${qs.toString()}`));
    },
    resend: (eventId, targetId) => call('POST', `/v1/activity/${enc(eventId)}/resend`, targetId ? { target_id: targetId } : {}),
  };
}
