import type { PayloadRequest, PayloadResult, ReadPayloadSettings } from './read-payload';

/** Shared by the payload tests; not part of the folder's public API. */
export function request(over: Partial<PayloadRequest> = {}): PayloadRequest {
  return { method: 'POST', contentType: undefined, rawBody: Buffer.alloc(0), rawQuery: '', ...over };
}

export function settings(over: Partial<ReadPayloadSettings> = {}): ReadPayloadSettings {
  return { base64ParamRequired: true, limits: { payloadBytes: 64 * 1024 }, ...over };
}

export function accepted(result: PayloadResult): Extract<PayloadResult, { ok: true }>['payload'] {
  if (!result.ok)
    throw new Error(`expected the payload to be accepted, got ${result.status} ${result.code}: ${result.message}`);
  return result.payload;
}

export function b64(json: string, alphabet: 'standard' | 'url' = 'standard', pad = true): string {
  let s = Buffer.from(json).toString('base64');
  if (alphabet === 'url') s = s.replace(/\+/g, '-').replace(/\//g, '_');
  return pad ? s : s.replace(/=+$/, '');
}
