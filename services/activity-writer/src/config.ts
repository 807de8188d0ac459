import { activityVars, commonVars, healthHostVars, int, mongoVars, rabbitVars } from '@relay/config';
import type { ConfigOf } from '@relay/config';

export const configSpec = {
  ...commonVars,
  ...rabbitVars,
  ...mongoVars,
  ...activityVars,
  ...healthHostVars,
  healthPort: int('HEALTH_PORT', 'HTTP port serving /healthz, /readyz and /metrics', { default: 8093, min: 0, max: 65535 }),
  prefetch: int('PREFETCH', 'activity messages held unacked at once; bounds the writer memory and one flush', { default: 8000, min: 1, max: 10000 }),
  batchSize: int('BATCH_SIZE', 'a flush starts once this many activity messages are ready', { default: 1000, min: 1, max: 10000 }),
  batchMaxWaitMs: int('BATCH_MAX_WAIT_MS', 'longest a ready activity message waits before it is written', { default: 200, min: 1 }),
  holdMs: int('ACTIVITY_HOLD_MS', "longest an accepted request's row waits for its deliveries' first attempts, to be written with them in one insert", { default: 3000, min: 0 }),
  keepPerMinute: int('ACTIVITY_KEEP_PER_MINUTE', 'identical rejections (endpoint, outcome, reason) per minute that keep rows of their own before the rest fold into one aggregated row', { default: 10, min: 1 }),
  retentionSweepMs: int('ACTIVITY_RETENTION_SWEEP_MS', 'how often the writer deletes expired activity rows', { default: 60000, min: 1000 }),
  deliveryLimit: int('BROKER_DELIVERY_LIMIT', 'redeliveries of one message before the broker dead-letters it (quorum x-delivery-limit)', { default: 20, min: 1 }),
};

export type Config = ConfigOf<typeof configSpec>;
