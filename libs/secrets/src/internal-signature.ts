import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseKeys } from './keys';

/**
 * Signs requests one Relay service makes to another's internal route (the management API's
 * test requests to a gateway), so that reaching the port is not enough to use the route. The
 * MAC keys are derived from SECRETS_KEYS, which both services already share — no new secret
 * to deploy — per purpose, so a signature for one route is worth nothing on another and the
 * encryption keys are never used as MAC keys themselves. Any configured key verifies (rotation).
 *
 * Header: `t=<unix ms>,k=<key id>,v1=<hex HMAC-SHA256 of "<t>." + body>`; a signature older or
 * newer than `maxSkewMs` is refused.
 */
export interface InternalSigner {
  sign(body: Buffer, nowMs?: number): string;
  verify(header: string | undefined, body: Buffer, nowMs?: number): boolean;
}

export function createInternalSigner(keysConfig: string, purpose: string, maxSkewMs = 300_000): InternalSigner {
  const keys = parseKeys(keysConfig).map((k) => ({
    id: k.id,
    mac: createHmac('sha256', k.key).update(`relay-internal-v1:${purpose}`).digest(),
  }));
  const primary = keys[0]!;
  const byId = new Map(keys.map((k) => [k.id, k.mac]));
  const macOf = (key: Buffer, t: string, body: Buffer) =>
    createHmac('sha256', key).update(`${t}.`).update(body).digest();
  return {
    sign(body, nowMs = Date.now()) {
      const t = String(nowMs);
      return `t=${t},k=${primary.id},v1=${macOf(primary.mac, t, body).toString('hex')}`;
    },
    verify(header, body, nowMs = Date.now()) {
      const parts = new Map(
        (header ?? '')
          .split(',')
          .map((p) => [p.slice(0, p.indexOf('=')).trim(), p.slice(p.indexOf('=') + 1).trim()] as const),
      );
      const [t, k, v1] = [parts.get('t'), parts.get('k'), parts.get('v1')];
      const key = k === undefined ? undefined : byId.get(k);
      if (!t || !/^\d{1,15}$/.test(t) || !key || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return false;
      if (Math.abs(nowMs - Number(t)) > maxSkewMs) return false;
      return timingSafeEqual(macOf(key, t, body), Buffer.from(v1, 'hex'));
    },
  };
}
