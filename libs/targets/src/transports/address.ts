import dns from 'node:dns/promises';
import net from 'node:net';
import type { AddressPolicy } from '../ssrf';

/** An address the SSRF policy refuses: classified as the guarded sender's `SSRF_BLOCKED`. */
export class SsrfRefusedError extends Error {
  readonly code = 'SSRF_BLOCKED';
}

/**
 * The address a pooled client dials, checked by the SSRF policy before any socket exists: the
 * host if it is an IP, else its first resolved address the policy allows. Dialled as resolved,
 * so a second DNS answer (rebinding) cannot reach an address other than the one checked.
 */
export async function addressOf(host: string, policy: AddressPolicy): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  const candidates = net.isIP(bare) !== 0 ? [bare] : (await dns.lookup(bare, { all: true })).map((a) => a.address);
  const allowed = candidates.find((a) => policy.check(a) === null);
  if (allowed) return allowed;
  throw new SsrfRefusedError(`${host}: ${policy.check(candidates[0] ?? '') ?? 'no address'}`);
}
