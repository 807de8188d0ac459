import http from 'node:http';
import https from 'node:https';
import type { CliForwardV1, CliLocalOutcome } from '@relay/contracts';

/** what the server keeps of the local answer's body (docs/cli.md); more is not read */
const ANSWER_BODY_BYTES = 2_048;

/**
 * Sends one forward to the local URL the user gave — the only place this CLI connects besides
 * the management API (docs/cli.md "SSRF") — as a POST with the forward's headers and body, and
 * reports the answer (status, Retry-After, the start of its body) or the network failure.
 */
export function forwardLocally(target: URL, forward: CliForwardV1, timeoutMs: number): Promise<CliLocalOutcome> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const body = Buffer.from(forward.body_base64, 'base64');
  const send = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: CliLocalOutcome): void => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const req = send(
      target,
      { method: 'POST', headers: { ...forward.headers, 'content-length': String(body.length) }, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (c: Buffer) => {
          if (kept < ANSWER_BODY_BYTES) chunks.push(c);
          kept += c.length;
        });
        res.on('error', (err: NodeJS.ErrnoException) =>
          done({ error: { code: err.code ?? 'ERESPONSE', message: err.message }, duration_ms: elapsed() }),
        );
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          done({
            status: res.statusCode ?? 0,
            duration_ms: elapsed(),
            headers: typeof retryAfter === 'string' ? { 'retry-after': retryAfter } : {},
            body: Buffer.concat(chunks).subarray(0, ANSWER_BODY_BYTES).toString('utf8'),
          });
        });
      },
    );
    req.on('timeout', () =>
      req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ error: { code: err.code ?? 'EREQUEST', message: err.message }, duration_ms: elapsed() }),
    );
    req.end(body);
  });
}
