export { createLogger } from './logger';
export type { Logger } from './logger';
