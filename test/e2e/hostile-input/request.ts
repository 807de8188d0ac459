import type { WritePlan } from './raw-http';

/** The bytes of one HTTP/1.1 request, built so that any part of it can be wrong on purpose. */
export interface RequestShape {
  method: string;
  /** request-target as sent: path and query, already encoded (or badly encoded) */
  target: string;
  /** header lines as sent, without CRLF; raw so that they can be malformed */
  headers: string[];
  body?: Buffer;
  /**
   * length: an honest Content-Length (the default when there is a body); chunked: honest
   * chunks of this size; none: no framing header at all (the caller may add a lying one)
   */
  framing?: 'length' | 'none' | { chunkSize: number };
  version?: string;
  /** false: keep-alive; by default every request asks `Connection: close` */
  close?: boolean;
}

export function encodeHead(shape: RequestShape, extraHeaders: string[] = []): Buffer {
  const lines = [`${shape.method} ${shape.target} ${shape.version ?? 'HTTP/1.1'}`, 'Host: 127.0.0.1'];
  if (shape.close !== false) lines.push('Connection: close');
  lines.push(...shape.headers, ...extraHeaders);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** Head and body framed as the shape says, in one part, the sender waiting for the answer. */
export function encodeRequest(shape: RequestShape): Buffer {
  const body = shape.body;
  const framing = shape.framing ?? (body ? 'length' : 'none');
  if (framing === 'none') return Buffer.concat([encodeHead(shape), body ?? Buffer.alloc(0)]);
  if (framing === 'length')
    return Buffer.concat([encodeHead(shape, [`Content-Length: ${body?.length ?? 0}`]), body ?? Buffer.alloc(0)]);
  return Buffer.concat([
    encodeHead(shape, ['Transfer-Encoding: chunked']),
    chunked(body ?? Buffer.alloc(0), framing.chunkSize),
  ]);
}

export function chunked(body: Buffer, chunkSize: number): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += chunkSize) {
    const piece = body.subarray(at, at + chunkSize);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** Everything at once, then wait for the answer. */
export function oneShot(bytes: Buffer): WritePlan {
  return { parts: [{ bytes }], after: 'wait' };
}
