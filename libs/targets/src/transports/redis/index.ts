export { createRedisStreamsLink, redisErrorCode } from './streams';
export type { AppendOutcome, RedisStreamsLink, StreamEntry } from './streams';
