import { activityVars, commonVars, healthHostVars, int, mongoVars, rabbitVars } from '@relay/config';
import type { ConfigOf } from '@relay/config';
import { activityLogVars } from '@relay/activity-log';

export const configSpec = {
  ...commonVars,
  ...rabbitVars,
  ...mongoVars,
  ...activityVars,
  ...activityLogVars,
  ...healthHostVars,
  healthPort: int('HEALTH_PORT', 'HTTP port serving /healthz, /readyz and /metrics', {
    default: 8093,
    min: 0,
    max: 65535,
  }),
  prefetch: int(
    'PREFETCH',
    'activity messages held unacked at once (each carries up to 100 records); bounds the writer memory',
    { default: 2000, min: 1, max: 10000 },
  ),
  payloadPrefetch: int(
    'PAYLOAD_PREFETCH',
    'payload messages (resend copies of accepted payloads, up to about 1 MiB each) held unacked at once; bounds the memory they take',
    { default: 16, min: 1, max: 1000 },
  ),
  maxHeld: int(
    'ACTIVITY_MAX_HELD',
    "most accepted requests' rows held at once waiting for their first attempts; past it the oldest is written without them",
    { default: 4000, min: 1 },
  ),
  batchSize: int('BATCH_SIZE', 'a flush starts once this many activity records are ready', {
    default: 1000,
    min: 1,
    max: 10000,
  }),
  // each flush adds an index page per account it touches, and listing reads pages one by one: at
  // low traffic a short wait would leave thousands of one-row pages an hour
  batchMaxWaitMs: int(
    'BATCH_MAX_WAIT_MS',
    'longest a ready activity record waits before it is written (each flush adds one index page per account it touches); also the longest the queue must be quiet before held index entries (ACTIVITY_INDEX_WAIT_MS) are written (after a burst, a quarter of it)',
    { default: 1000, min: 1 },
  ),
  // listing reads index pages one by one, and each read scans its hour's collection on FerretDB:
  // at steady traffic a flush a second would leave a page of one or two entries per endpoint,
  // status group and source-IP bucket (docs/architecture.md "Holding sparse pages")
  indexWaitMs: int(
    'ACTIVITY_INDEX_WAIT_MS',
    "FerretDB activity-log driver: how long an endpoint's, status group's or source-IP bucket's index entries wait to share one page with later flushes' (0: a page every flush); the account's are never held. Filters by those show a row up to this much later under steady traffic",
    { default: 10000, min: 0, max: 60000 },
  ),
  indexMaxWaitMs: int(
    'ACTIVITY_INDEX_MAX_WAIT_MS',
    "FerretDB activity-log driver: longest those entries wait while fewer than 8 (a rare group: an endpoint's errors); at least ACTIVITY_INDEX_WAIT_MS",
    { default: 30000, min: 0, max: 600000 },
  ),
  holdMs: int(
    'ACTIVITY_HOLD_MS',
    "longest an accepted request's row waits for its deliveries' first attempts, to be written with them in one insert",
    { default: 3000, min: 0 },
  ),
  keepPerMinute: int(
    'ACTIVITY_KEEP_PER_MINUTE',
    'identical rejections (endpoint, outcome, reason) per minute that keep rows of their own before the rest fold into one aggregated row',
    { default: 10, min: 1 },
  ),
  retentionSweepMs: int('ACTIVITY_RETENTION_SWEEP_MS', 'how often the writer deletes expired activity rows', {
    default: 60000,
    min: 1000,
  }),
  balanceMs: int(
    'ACTIVITY_BALANCE_MS',
    'how often a writer compares the activity partitions it receives with its share (partitions / writers) and gives one away when it has more (0: never)',
    { default: 10000, min: 0, max: 600000 },
  ),
  deliveryLimit: int(
    'BROKER_DELIVERY_LIMIT',
    'redeliveries of one message before the broker dead-letters it (quorum x-delivery-limit)',
    { default: 20, min: 1 },
  ),
};

export type Config = ConfigOf<typeof configSpec>;
