import type { Connection } from 'mongoose';
import type { ActivityLog, ActivityLogDriver } from './driver';
import { openFerretDbLog } from './ferretdb';
import { decodeRowCursor } from './mongodb/cursor';
import { openMongoDbLog } from './mongodb/log';
import { decodePosition } from './storage/internal';

const opened = new WeakMap<Connection, Map<ActivityLogDriver, ActivityLog>>();

/**
 * The activity log on a store connection (@relay/store `Store.connection`) through the driver
 * the deployment chose (ACTIVITY_LOG_DRIVER; docs/operations.md). One per connection and
 * driver: its collection handles and what it remembers of the store are shared by everyone who
 * opens it.
 */
export function openActivityLog(connection: Connection, driver: ActivityLogDriver): ActivityLog {
  let logs = opened.get(connection);
  if (!logs) opened.set(connection, (logs = new Map()));
  let log = logs.get(driver);
  if (!log) {
    log = driver === 'mongodb' ? openMongoDbLog(connection) : openFerretDbLog(connection);
    logs.set(driver, log);
  }
  return log;
}

/** Whether `cursor` is a `next_cursor` a driver gave out (a list call with another driver's rejects it). */
export const isCursor = (cursor: string): boolean =>
  decodePosition(cursor) !== null || decodeRowCursor(cursor) !== null;
