import { oneOf } from '@relay/config';
import { ACTIVITY_LOG_DRIVERS } from './driver';

/** Read by the activity-writer (which writes the log) and the management API (which reads it): both use one driver. */
export const activityLogVars = {
  activityLogDriver: oneOf(
    'ACTIVITY_LOG_DRIVER',
    "the activity log's storage driver: `ferretdb` (hourly partitions read by `_id` and index pages of its own, for FerretDB) or `mongodb` (one indexed collection with a TTL index, for MongoDB); the writer and the API must use the same",
    ACTIVITY_LOG_DRIVERS,
    { default: 'ferretdb' },
  ),
};
