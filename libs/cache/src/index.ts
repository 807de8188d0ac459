// Caches of stored settings in the gateways and deliverers: one LRU library for every cache in
// the project (lru-cache), the change announcements that keep them current, and the paced
// revalidation that makes a missed announcement harmless (docs/architecture.md "Caches of settings").
export { LRUCache } from 'lru-cache';
export { ChangeFeed } from './change-feed';
export { createChangePublisher } from './change-publisher';
export type { ChangePublisher } from './change-publisher';
export { PacedRevalidation } from './paced-revalidation';
export { createCacheMetrics } from './metrics';
export type { CacheMetrics, StoreReadWhy } from './metrics';
export { connectChangeFeed } from './connect';
export { connectRedis } from './redis';
export type { RedisClient } from './redis';
export type { ChangeConnections } from './connect';
