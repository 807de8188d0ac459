import ipaddr from 'ipaddr.js';
import { parseIpRange } from '@relay/endpoints';
import type { IpAccessLists, IpRange } from '@relay/endpoints';
import { PASS, rejection } from '../rules/rejection';
import type { Check } from '../rules/rejection';

/**
 * Outcome IP_BLOCKED. The spec leaves its HTTP status open; Relay answers 403 Forbidden: the
 * request is understood and authentication would not change the answer. The message does not
 * say which list matched.
 */
const BLOCKED = rejection(403, 'IP_BLOCKED', 'Requests from this IP address are not accepted by this endpoint.');

function compileList(entries: readonly string[]): IpRange[] {
  return entries.map((entry) => {
    const range = parseIpRange(entry);
    // Lists are validated at save time; a bad stored entry must fail loudly, not drop a deny rule.
    if (range === null) throw new Error(`invalid IP list entry in endpoint settings: ${entry}`);
    return range;
  });
}

/** An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, what a dual-stack socket reports) counts as IPv4. */
function parseSource(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  return ipaddr.isValid(ip) ? ipaddr.process(ip) : null;
}

function matches(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: readonly IpRange[]): boolean {
  return ranges.some((r) =>
    r.kind === 'ipv4'
      ? address.kind() === 'ipv4' && (address as ipaddr.IPv4).match(r.range)
      : address.kind() === 'ipv6' && (address as ipaddr.IPv6).match(r.range),
  );
}

/**
 * Compiles an endpoint's allow and deny lists once (per endpoint revision). Deny wins over
 * allow; an empty allow list allows every address that is not denied. A source address that
 * cannot be parsed is blocked whenever either list has entries.
 */
export function compileIpAccess(lists: IpAccessLists): (sourceIp: string) => Check {
  const allow = compileList(lists.allow);
  const deny = compileList(lists.deny);
  if (allow.length === 0 && deny.length === 0) return () => PASS;
  return (sourceIp) => {
    const address = parseSource(sourceIp);
    if (address === null || matches(address, deny)) return BLOCKED;
    return allow.length === 0 || matches(address, allow) ? PASS : BLOCKED;
  };
}
