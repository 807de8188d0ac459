import { crc32 } from 'node:zlib';
import { fail, headerValue, missingHeader, PASS } from '../request';
import type { InboundRequest, VerifyResult } from '../request';
import { checkTimestamp, parseTimestampMs } from '../hmac/timestamp';
import { certificateUrlProblem } from './urls';
import { base64Signature, refused, rsaVerifier } from './plan';
import type { CertificatePlan } from './plan';

const HEADERS = {
  id: 'paypal-transmission-id',
  time: 'paypal-transmission-time',
  sig: 'paypal-transmission-sig',
  certUrl: 'paypal-cert-url',
  algo: 'paypal-auth-algo',
} as const;

/**
 * PayPal's self-verification (developer.paypal.com "Webhooks", verify signature): the message
 * `transmission_id|transmission_time|webhook_id|crc32(body)`, the CRC as an unsigned decimal,
 * signed SHA256withRSA (`paypal-auth-algo`). `webhookIds` are the endpoint's "secrets"; every
 * one is tried. The replay window, when the endpoint sets `tolerance_seconds`, is checked on
 * the signed transmission time.
 */
export function paypalPlan(
  req: InboundRequest,
  webhookIds: readonly string[],
  toleranceSeconds: number | null,
  now: Date,
): CertificatePlan {
  const values: Partial<Record<keyof typeof HEADERS, string>> = {};
  for (const [key, name] of Object.entries(HEADERS) as [keyof typeof HEADERS, string][]) {
    const value = headerValue(req, name);
    if (value === undefined) return refused(reasonOf(missingHeader(name)));
    values[key] = value;
  }
  const { id, time, sig, certUrl, algo } = values as Record<keyof typeof HEADERS, string>;
  if (algo.toLowerCase() !== 'sha256withrsa') return refused(`${HEADERS.algo} is not SHA256withRSA`);
  const signature = base64Signature(sig);
  if (signature === undefined) return refused(`malformed ${HEADERS.sig} header`);
  const urlProblem = certificateUrlProblem('paypal', certUrl);
  if (urlProblem) return refused(urlProblem);
  const crc = crc32(req.rawBody).toString(10);
  const verifySignature = rsaVerifier(
    'sha256',
    webhookIds.map((webhookId) => `${id}|${time}|${webhookId}|${crc}`),
    signature,
  );
  return {
    ok: true,
    signed: {
      provider: 'paypal',
      certificateUrl: certUrl,
      verify: (key) => {
        const result = verifySignature(key);
        return result.ok ? withinWindow(time, toleranceSeconds, now) : result;
      },
    },
  };
}

function withinWindow(time: string, toleranceSeconds: number | null, now: Date): VerifyResult {
  if (toleranceSeconds === null) return PASS;
  const ms = parseTimestampMs(time, 'iso8601');
  if (ms === undefined) return fail(`malformed ${HEADERS.time} header`);
  return checkTimestamp(ms, now, toleranceSeconds, 'milliseconds');
}

function reasonOf(result: VerifyResult): string {
  return result.ok ? '' : result.reason;
}
