import { quotaMonth, usageDailyKey } from '@relay/contracts';
import { quotaKey, rateKey } from './keys';

/**
 * The Redis Cluster rule (cluster spec, "Keys distribution model"): a script or MULTI may only
 * touch keys of one hash slot, CRC16(XMODEM) of the key — or of its first non-empty `{…}` tag —
 * modulo 16384. Written out here rather than taken from a client, so the test states the rule.
 */
function crc16(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function slotOf(key: string): number {
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return crc16(key.slice(open + 1, close)) % 16384;
  }
  return crc16(key) % 16384;
}

describe('Redis Cluster hash slots of the limiter keys', () => {
  it('computes the slots the Redis Cluster spec gives as examples', () => {
    expect(crc16('123456789')).toBe(0x31c3);
    expect(slotOf('foo')).toBe(12182);
    expect(slotOf('{user1000}.following')).toBe(slotOf('{user1000}.followers'));
    expect(slotOf('foo{}{bar}')).toBe(crc16('foo{}{bar}') % 16384);
  });

  // The audit (docs/operations.md "Clustered RabbitMQ and Redis"): relayAdmit is the one script,
  // MULTI or pipeline with more than one key. The others each touch one: relayAddQuota, the
  // idempotency scripts, the spool's list, its quarantine MULTI and lock, the change counter's
  // script (its PUBLISH reaches every node), the management API's action-limit MULTI, account
  // lock, sessions and usage read.
  // relayAdmit (scripts.ts ADMIT_LUA): KEYS[1] the rate bucket, KEYS[2] the quota counter,
  // KEYS[3] the month's per-endpoint-and-day usage hash (relayRefund: KEYS[2] and KEYS[3] of it)
  it.each([
    ['relay', 'acc_1', 'ep_1', '2026-11-26T15:00:00Z'],
    ['relay', 'acc_8f3a', 'ep_zz9', '2026-12-31T23:59:59Z'],
    ['t-ns-42', 'acc_x', 'ep_y', '2027-01-01T00:00:00Z'],
    ['stack.e2e', 'acc_0123456789abcdef', 'ep_0123456789abcdef', '2025-05-05T10:00:10Z'],
  ])('relayAdmit keys of namespace %s, account %s, endpoint %s at %s share one slot', (ns, account, endpoint, at) => {
    const quota = quotaKey(ns, account, new Date(at));
    expect(slotOf(rateKey(ns, endpoint, quota))).toBe(slotOf(quota));
    expect(slotOf(usageDailyKey(ns, account, quotaMonth(new Date(at))))).toBe(slotOf(quota));
  });

  it('keeps the quota counter name the management API reads (GET /billing/usage): renaming it would reset the month', () => {
    expect(quotaKey('relay', 'acc_1', new Date('2026-11-26T15:00:00Z'))).toBe('relay:quota:acc_1:2026-11');
  });

  it('spreads the endpoints of different accounts over the cluster rather than one node', () => {
    const slots = new Set(
      Array.from({ length: 50 }, (_, i) =>
        slotOf(rateKey('relay', `ep_${i}`, quotaKey('relay', `acc_${i}`, new Date('2026-11-26T00:00:00Z')))),
      ),
    );
    expect(slots.size).toBeGreaterThan(45);
  });
});
