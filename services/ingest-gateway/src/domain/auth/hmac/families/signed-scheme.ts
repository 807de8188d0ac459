import type { MacEncoding, PresetSpec, SignedPart } from '@relay/endpoints';
import { fail, headerValue, malformedHeader, missingHeader, PASS, SIGNATURE_MISMATCH } from '../../request';
import type { InboundRequest, VerifyResult } from '../../request';
import type { PresetContext } from '../preset';
import { checkTimestamp, parseTimestampMs } from '../timestamp';
import { parseSignatureHeader } from './signature-header';
import { signedContents } from './signed-content';
import type { SignedValues } from './signed-content';

/** The crypto step of a family: does any candidate content carry any received signature? */
export type SignatureCheck = (
  secrets: readonly string[],
  contents: (string | Buffer)[][],
  signatures: readonly Buffer[],
) => boolean;

interface SignedSchemeShape {
  signed: readonly SignedPart[];
  encoding: MacEncoding;
  urlPortVariants?: boolean;
  /** A fixed signature size (Ed25519: 64 bytes); a header with none of that size is malformed. */
  signatureBytes?: number;
}

/**
 * The steps every described signature scheme shares, in the order that gives the most useful
 * reason: required headers present, timestamp well-formed, signature header well-formed, the
 * signature valid, and only then the replay window (so a stale but genuine request says so).
 */
export function verifySignedScheme(
  spec: PresetSpec,
  shape: SignedSchemeShape,
  check: SignatureCheck,
  req: InboundRequest,
  ctx: PresetContext,
): VerifyResult {
  // The catalog gives every signing preset a signature header (a unit test checks it).
  if (spec.signature === undefined) return fail('preset has no signature header');
  const sigHeader = spec.signature.header;
  const value = headerValue(req, sigHeader);
  if (value === undefined) return missingHeader(sigHeader);

  const values: SignedValues = {};
  if (shape.signed.includes('id')) {
    const idHeader = spec.id !== undefined && 'header' in spec.id ? spec.id.header : '';
    values.id = headerValue(req, idHeader);
    if (values.id === undefined) return missingHeader(idHeader);
  }

  const ts = spec.timestamp;
  let timestampFrom = sigHeader;
  if (ts?.header !== undefined) {
    values.timestamp = headerValue(req, ts.header);
    // With a signed body field as well (Linear), the header is optional.
    if (values.timestamp === undefined && ts.bodyField === undefined) return missingHeader(ts.header);
    timestampFrom = ts.header;
  }

  const parsed = parseSignatureHeader(value, spec.signature.format, shape.encoding);
  if (parsed === undefined) return malformedHeader(sigHeader);
  if (shape.signatureBytes !== undefined && !parsed.signatures.some((sig) => sig.length === shape.signatureBytes))
    return malformedHeader(sigHeader);
  if (parsed.timestamp !== undefined) values.timestamp = parsed.timestamp;

  const timestamps: number[] = [];
  if (ts !== undefined && ctx.toleranceSeconds !== null && values.timestamp !== undefined) {
    const ms = parseTimestampMs(values.timestamp, ts.unit);
    if (ms === undefined) return malformedHeader(timestampFrom);
    timestamps.push(ms);
  }

  const contents = signedContents(shape.signed, req, values, shape.urlPortVariants === true);
  if (!check(ctx.secrets, contents, parsed.signatures)) return SIGNATURE_MISMATCH;
  if (ts === undefined || ctx.toleranceSeconds === null) return PASS;

  if (ts.bodyField !== undefined) {
    const bodyTs = bodyNumber(req.rawBody, ts.bodyField);
    if (bodyTs !== undefined) timestamps.push(ts.unit === 'seconds' ? bodyTs * 1000 : bodyTs);
    if (timestamps.length === 0) return missingHeader(ts.header ?? ts.bodyField);
  }
  for (const ms of timestamps) {
    const result = checkTimestamp(ms, ctx.now, ctx.toleranceSeconds, 'milliseconds');
    if (!result.ok) return result;
  }
  return timestamps.length > 0 ? PASS : fail('missing timestamp');
}

/** A top-level number of a JSON body (covered by the MAC, unlike a separate header). */
function bodyNumber(body: Buffer, field: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    const value =
      typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[field] : undefined;
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
