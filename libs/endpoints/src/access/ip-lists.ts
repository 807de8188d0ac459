import ipaddr from 'ipaddr.js';
import { joinPath, schemaCheck } from '../rules/validation';
import { resultOf } from '@relay/contracts';
import type { FieldError, Validation } from '@relay/contracts';

/**
 * IP allow and deny lists of an endpoint (outcome IP_BLOCKED). Entries are CIDR ranges, IPv4
 * or IPv6; a bare address means that single host (/32 or /128). IPv4-mapped IPv6 ranges
 * (`::ffff:10.0.0.0/104`) are stored as written but match as the IPv4 range they denote.
 * Deny wins over allow; an empty allow list allows every address not denied.
 */
export interface IpAccessLists {
  allow: string[];
  deny: string[];
}

export const MAX_IP_LIST_ENTRIES = 200;

export type IpRange = { kind: 'ipv4'; range: [ipaddr.IPv4, number] } | { kind: 'ipv6'; range: [ipaddr.IPv6, number] };

const PREFIX = /^(?:0|[1-9]\d{0,2})$/;

/**
 * Parses one list entry; `null` when it is not a CIDR range or address. IPv4 must be
 * dotted-quad decimal: ipaddr.js alone would also read `010.1.2.3` as octal, which no one means.
 */
export function parseIpRange(entry: string): IpRange | null {
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const prefix = slash === -1 ? undefined : entry.slice(slash + 1);
  if (prefix !== undefined && !PREFIX.test(prefix)) return null;
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) {
    const bits = prefix === undefined ? 32 : Number(prefix);
    return bits <= 32 ? { kind: 'ipv4', range: [ipaddr.IPv4.parse(address), bits] } : null;
  }
  if (!address.includes(':') || address.includes('%') || !ipaddr.IPv6.isValid(address)) return null;
  const ip = ipaddr.IPv6.parse(address);
  const bits = prefix === undefined ? 128 : Number(prefix);
  if (bits > 128) return null;
  if (ip.isIPv4MappedAddress() && bits >= 96) return { kind: 'ipv4', range: [ip.toIPv4Address(), bits - 96] };
  return { kind: 'ipv6', range: [ip, bits] };
}

const list = { type: 'array', maxItems: MAX_IP_LIST_ENTRIES, items: { type: 'string', minLength: 1, maxLength: 64 } };
const check = schemaCheck({
  type: 'object',
  properties: { allow: list, deny: list },
  required: ['allow', 'deny'],
  additionalProperties: false,
});

export function validateIpAccessLists(input: unknown, at = 'ip_access'): Validation<IpAccessLists> {
  const errors = check(input, at);
  if (errors.length > 0) return { ok: false, errors };
  const lists = input as IpAccessLists;
  for (const name of ['allow', 'deny'] as const) {
    lists[name].forEach((entry, i) => errors.push(...entryErrors(entry, joinPath(joinPath(at, name), i))));
  }
  return resultOf(errors, () => ({ allow: [...lists.allow], deny: [...lists.deny] }));
}

function entryErrors(entry: string, field: string): FieldError[] {
  return parseIpRange(entry) === null
    ? [{ field, message: 'must be an IPv4 or IPv6 address or CIDR range, e.g. 203.0.113.0/24 or 2001:db8::/32' }]
    : [];
}
