import { commonVars, int, mongoVars, rabbitVars } from '@relay/config';
import type { ConfigOf } from '@relay/config';

export const configSpec = {
  ...commonVars,
  ...rabbitVars,
  ...mongoVars,
  healthPort: int('HEALTH_PORT', 'HTTP port serving /healthz, /readyz and /metrics', { default: 8093, min: 0, max: 65535 }),
  prefetch: int('PREFETCH', 'activity messages held unacked at once; bounds one batch', { default: 500, min: 1, max: 10000 }),
  batchSize: int('BATCH_SIZE', 'activity messages written to MongoDB in one bulk write', { default: 200, min: 1, max: 5000 }),
  batchMaxWaitMs: int('BATCH_MAX_WAIT_MS', 'longest a message waits for its batch to fill before it is written', { default: 200, min: 1 }),
  deliveryLimit: int('BROKER_DELIVERY_LIMIT', 'redeliveries of one message before the broker dead-letters it (quorum x-delivery-limit)', { default: 20, min: 1 }),
};

export type Config = ConfigOf<typeof configSpec>;
