import type { RedisClient } from '@relay/cache';

/**
 * Once per episode, across every instance (docs/alerts.md "Once per episode"): the first sighting
 * of a rule's condition for one subject (a target, an endpoint and outcome, the account's month)
 * sets `${ns}:alert-episode:<rule>:<condition key>` with a TTL of the rule's cool-down and sends
 * the alert; every further sighting while the key lives only extends it. The episode ends when
 * the condition has not been seen for the cool-down; the next sighting starts a new one.
 * SET NX is atomic, so two instances seeing the same sighting send one alert.
 */
export async function startsEpisode(
  redis: RedisClient,
  namespace: string,
  ruleId: string,
  conditionKey: string,
  cooldownMs: number,
): Promise<boolean> {
  const key = `${namespace}:alert-episode:${ruleId}:${conditionKey}`;
  const set = await redis.set(key, '1', 'PX', cooldownMs, 'NX');
  if (set === 'OK') return true;
  await redis.pexpire(key, cooldownMs);
  return false;
}

/** Alerts one rule may send an hour, whatever its episodes (a rule over many targets flapping). */
export const ALERTS_PER_RULE_PER_HOUR = 30;

/** Counts one alert of the rule in this UTC hour; false once the rule sent ALERTS_PER_RULE_PER_HOUR. */
export async function withinRuleRate(
  redis: RedisClient,
  namespace: string,
  ruleId: string,
  nowMs: number,
): Promise<boolean> {
  const key = `${namespace}:alert-rate:${ruleId}:${Math.floor(nowMs / 3_600_000)}`;
  const n = await redis.incr(key);
  if (n === 1) await redis.expire(key, 3600);
  return n <= ALERTS_PER_RULE_PER_HOUR;
}
