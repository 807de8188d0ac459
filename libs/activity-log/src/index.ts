export { LIST_READ_BUDGET, isCursor, openActivityLog } from './activity-log';
export type {
  ActivityLog,
  ActivityLogWriter,
  ActivityLogWriterOptions,
  ActivityPage,
  FlushStats,
} from './activity-log';
export { STATUS_FILTERS } from './reading/filter';
export type { ActivityListQuery, ListedRow, StatusFilter } from './reading/filter';
export { currentDeliveries, deliveryState } from './storage/internal';
export type { StoredAttempt, StoredPayload } from './storage/internal';
