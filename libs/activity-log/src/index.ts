export { isCursor, openActivityLog } from './activity-log';
export { activityLogVars } from './config';
export { ACTIVITY_LOG_DRIVERS, STATUS_FILTERS } from './driver';
export type {
  ActivityListQuery,
  ActivityLog,
  ActivityLogDriver,
  ActivityLogWriter,
  ActivityLogWriterOptions,
  ActivityPage,
  FlushStats,
  ListedRow,
  StatusFilter,
  StoredPayload,
} from './driver';
export { currentDeliveries, deliveryState } from './storage/internal';
export type { StoredAttempt } from './storage/internal';
