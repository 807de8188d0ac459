import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { checkResponse } from './openapi-check';

/**
 * Wraps the management API's request listener so that every response it sends is checked
 * against the OpenAPI document as it is sent (support/openapi-check.ts). What does not match is
 * kept until the end of the running test, which then fails naming each response
 * (`failOnMismatches`, registered by the integration fixture).
 */
const mismatches: string[] = [];

/** The dashboard's own routes — its page and assets, its sign-in at `/session…` (docs/dashboard.md) — are not the API's. */
const isDashboardPath = (url: string): boolean => {
  const path = url.split('?')[0]!;
  return path === '/' || path === '/index.html' || path.startsWith('/assets/') || /^\/session(\/|$)/.test(path);
};

export function recordingResponses(listener: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    // express rewrites req.url while a mounted router handles it: keep the one that arrived
    const url = req.url ?? '/';
    if (isDashboardPath(url)) return listener(req, res);
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding?: unknown): void => {
      if (typeof chunk === 'string')
        chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') keep(chunk, rest[0]);
      const contentType = res.getHeader('content-type');
      const found = checkResponse({
        method: req.method ?? 'GET',
        url,
        status: res.statusCode,
        contentType: contentType === undefined ? undefined : String(contentType),
        text: req.method === 'HEAD' ? '' : Buffer.concat(chunks).toString('utf8'),
      });
      mismatches.push(...found);
      return end(chunk, ...rest);
    }) as ServerResponse['end'];
    listener(req, res);
  };
}

/** Throws (failing the test that ran) if a response since the last call departed from the document. */
export function failOnMismatches(): void {
  const found = mismatches.splice(0);
  if (found.length > 0)
    throw new Error(
      `responses that do not match the OpenAPI document (services/management-api/src/openapi):\n  ${found.join('\n  ')}`,
    );
}
