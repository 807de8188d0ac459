import { CUSTOM_DEFAULT_TOLERANCE_SECONDS, parseSignedContentTemplate } from '@relay/endpoints';
import type { HmacCustomInboundAuth } from '@relay/endpoints';
import { decodeSignature } from '../constant-time';
import { fail, headerValue, malformedHeader, missingHeader } from '../request';
import type { InboundRequest, VerifyResult } from '../request';
import { afterPrefix, verifyHmac } from './mac';
import { checkTimestamp, parseTimestamp } from './timestamp';

/**
 * A sender-defined scheme: `<header>: <prefix><hex|base64 HMAC(secret, template)>`, the template
 * built from literal text, {{body}} (raw bytes), {{timestamp}} and {{id}} (header values as
 * received) and {{url}} (the URL the sender used). With a timestamp header, the replay window
 * is tolerance_seconds (default 300 s) in the configured unit.
 */
export function verifyCustom(setting: HmacCustomInboundAuth, req: InboundRequest, now: Date): VerifyResult {
  const config = setting.custom;
  const value = headerValue(req, config.header);
  if (value === undefined) return missingHeader(config.header.toLowerCase());
  const encoded = afterPrefix(value, config.prefix ?? '');
  const signature = encoded === undefined ? undefined : decodeSignature(encoded, config.encoding);
  if (signature === undefined) return malformedHeader(config.header.toLowerCase());

  const values: { timestamp?: string; id?: string } = {};
  let ts: number | undefined;
  if (config.timestamp_header !== undefined) {
    values.timestamp = headerValue(req, config.timestamp_header);
    if (values.timestamp === undefined) return missingHeader(config.timestamp_header.toLowerCase());
    ts = parseTimestamp(values.timestamp);
    if (ts === undefined) return malformedHeader(config.timestamp_header.toLowerCase());
  }
  if (config.id_header !== undefined) {
    values.id = headerValue(req, config.id_header);
    if (values.id === undefined) return missingHeader(config.id_header.toLowerCase());
  }

  const template = parseSignedContentTemplate(config.template);
  if (!template.ok) return fail('custom signature template is invalid');
  const content = template.parts.map((part): string | Buffer => {
    if (part.kind === 'text') return part.text;
    if (part.name === 'body') return req.rawBody;
    if (part.name === 'url') return req.url;
    return values[part.name] ?? '';
  });
  const result = verifyHmac(setting.secrets, config.algorithm, content, [signature]);
  if (!result.ok || ts === undefined) return result;
  return checkTimestamp(ts, now, setting.tolerance_seconds ?? CUSTOM_DEFAULT_TOLERANCE_SECONDS, config.timestamp_unit);
}
