import type { GatewayInstance } from './harness';

export interface Send {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** raw query string, without `?` */
  query?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** the parsed body, `undefined` when empty */
  json: any;
}

/** One request to a gateway's ingest URL; JSON content type unless told otherwise. */
export async function send(gateway: GatewayInstance, endpointId: string, init: Send = {}): Promise<Answer> {
  const method = init.method ?? 'POST';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const res = await fetch(`${gateway.url}/relay/${endpointId}${init.query !== undefined ? `?${init.query}` : ''}`, {
    method,
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: hasBody ? (init.body ?? '{}') : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

/** The bytes a webhook target would receive, from a published delivery. */
export function deliveredBody(d: { payload: { body_base64: string } }): string {
  return Buffer.from(d.payload.body_base64, 'base64').toString('utf8');
}
