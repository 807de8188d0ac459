export { createLogger } from './logger';
export type { Logger, LoggerOptions } from './logger';
export { REDACTED, isSensitiveKey, redact } from './redact';
