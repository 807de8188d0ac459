import type { IncomingMessage, ServerResponse } from 'node:http';

/** Why a body was not read whole: larger than allowed, or not sent in time. */
export type BodyRefusal = 'too_large' | 'timed_out';

export interface BodyLimits {
  /** bytes; reading stops as soon as the body is larger */
  maxBytes: number;
  /** time to receive the whole body, from the moment reading starts */
  timeoutMs: number;
}

/**
 * Reads the raw request bytes. Signatures are verified over exactly these bytes, so nothing
 * here decodes or re-encodes them.
 *
 * - Stops as soon as `maxBytes` is exceeded, so an oversized upload costs at most that much
 *   memory; a declared Content-Length over it is refused before a byte is read.
 * - Gives a sender `timeoutMs` for the whole body, so a trickled body cannot hold the
 *   connection (the caller answers 408 with a row).
 * - Sends `100 Continue` only now, for a sender that asked for it: a request refused earlier
 *   never had its body sent at all (transport/server.ts).
 *
 * Every refusal leaves the rest of the body unread: the caller answers with `Connection: close`.
 * Rejects only when the connection failed (the sender hung up).
 */
export function readRawBody(
  req: IncomingMessage,
  res: ServerResponse,
  limits: BodyLimits,
): Promise<Buffer | BodyRefusal> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) return Promise.resolve('too_large');
  if (/100-continue/i.test(req.headers.expect ?? '') && !res.headersSent) res.writeContinue();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: () => void): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      req.pause();
      outcome();
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limits.maxBytes) finish(() => resolve('too_large'));
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(() => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    const onError = (err: Error): void => finish(() => reject(err));
    const onAborted = (): void =>
      finish(() => reject(new Error('the sender closed the connection before the body was complete')));
    const timer = setTimeout(() => finish(() => resolve('timed_out')), limits.timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}
