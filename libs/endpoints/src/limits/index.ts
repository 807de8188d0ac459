export { DEFAULT_RATE_LIMIT_PER_MINUTE, MAX_RATE_LIMIT_PER_MINUTE, validateRateLimit } from './rate-limit';
export {
  ENDPOINT_UNAVAILABLE_RETRY_AFTER_SECONDS,
  MAX_MAINTENANCE_WINDOWS,
  isPaused,
  parseIsoDateTime,
  pauseState,
  validateMaintenanceWindows,
} from './maintenance';
export type { MaintenanceWindow, PauseSettings, PauseState } from './maintenance';
