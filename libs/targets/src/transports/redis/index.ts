export { createRedisStreamsLink, redisErrorCode } from './streams';
export type { AppendOutcome, RedisStreamsLink, RedisStreamsOptions, StreamEntry } from './streams';
