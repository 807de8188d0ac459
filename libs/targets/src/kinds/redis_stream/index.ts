// The Redis Streams output: settings, the entry of one delivery, and its XADD's classification.
export { checkRedisUrl, redisStreamDescription, validateRedisStreamConfig } from './config';
export type { RedisStreamConfig } from './config';
export { classifyRedisAppend } from './classify';
export { createRedisStreamKind, redisStreamInfo, streamEntry } from './kind';
export type { RedisStreamKindDeps } from './kind';
