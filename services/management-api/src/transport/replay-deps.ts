import type { DeliveryPublisher } from '@relay/broker';
import type { Logger } from '@relay/logging';
import type { ActivityLog } from '@relay/activity-log';
import type { Store } from '@relay/store';
import type { ActionLimiter } from '../adapters/action-limiter';
import type { ResendAllowance } from '../adapters/resend-allowance';
import type { BulkRetryStore } from '../adapters/bulk-retry-store';
import type { TestRequestGateway } from '../adapters/gateway-client';

/** What the test request, resend and bulk retry routes need (main.ts builds it). */
export interface ReplayDeps {
  store: Store;
  activityLog: ActivityLog;
  logger: Logger;
  now(): Date;
  /** runs test requests through a gateway's pipeline */
  gateway: TestRequestGateway;
  /** publishes resent deliveries with broker confirms */
  deliveries: DeliveryPublisher;
  limits: ActionLimiter;
  /** deliveries resends may still add to an event's row (MAX_RESENT_DELIVERIES_PER_EVENT) */
  resendAllowance: ResendAllowance;
  jobs: BulkRetryStore;
  /** ACTIVITY_RETENTION_DAYS in ms: a bulk retry's window never reaches past it */
  retentionMs: number;
  testRequestsPerMinute: number;
  resendsPerMinute: number;
  /** BULK_RETRY_MAX_RATE: deliveries per second a job may ask for */
  bulkRetryMaxRate: number;
}
