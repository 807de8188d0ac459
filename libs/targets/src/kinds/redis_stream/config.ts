import type { Validation } from '@relay/contracts';
import type { CheckContext, KindDescription } from '../../describe/field';
import { checkDescribed } from '../../describe/validate';
import { checkServerUrl } from '../server-url';

/** A Redis Streams target's settings (docs/targets-queues.md "Redis Streams"). */
export interface RedisStreamConfig {
  /** `redis://` or `rediss://` (TLS), with the password (and ACL user) in it; sealed at rest */
  url: string;
  /** the stream's key: one fixed key per target */
  stream: string;
  /** entries kept by `XADD … MAXLEN ~ n`; 0 = the stream is never trimmed by Relay */
  max_length: number;
}

/** Redis keys are binary-safe; a stream key here is printable, without spaces, so it reads the same in every tool. */
const STREAM_KEY = /^[!-~]{1,256}$/;
export const MAX_STREAM_LENGTH = 1_000_000_000;

/**
 * The URL forms ioredis dials: a host (no path beyond a database number, no query: options are
 * Relay's, not the URL's). The message never echoes the URL, which holds the password.
 */
export function checkRedisUrl(value: string, ctx: CheckContext): undefined {
  return checkServerUrl(value, ctx, {
    schemes: ['redis:', 'rediss:'],
    notAUrl: 'url must be a redis:// or rediss:// URL, e.g. rediss://:password@redis.example.com:6380/0',
    pathProblem: (pathname) =>
      /^(\/(\d{1,2})?)?$/.test(pathname) ? null : 'url path may only be a database number, e.g. /0',
  });
}

/**
 * Described once (docs/adding-a-target-kind.md). The stream key is fixed, not a template: a
 * per-event key would create streams without bound, each with its own trimming.
 */
export const redisStreamDescription: KindDescription = {
  label: 'Redis Streams (XADD)',
  help: 'Each delivery appended to a Redis stream with XADD, its delivery id a field of the entry; docs/targets-queues.md.',
  fields: {
    url: {
      type: 'string',
      label: 'Redis URL',
      required: true,
      credential: true,
      trim: true,
      maxLength: 2048,
      example: 'rediss://:password@redis.example.com:6380/0',
      help: 'redis:// or rediss:// (TLS) with the password (and ACL user); a secret: stored sealed, never shown',
      check: checkRedisUrl,
    },
    stream: {
      type: 'string',
      label: 'Stream key',
      required: true,
      trim: true,
      pattern: STREAM_KEY.source,
      example: 'webhooks:stripe',
      message: 'stream must be a key of 1 to 256 printable characters without spaces',
    },
    max_length: {
      type: 'integer',
      label: 'Keep at most (MAXLEN ~)',
      help: 'entries kept, trimmed approximately as each is added; 0 = never trimmed',
      default: 0,
      minimum: 0,
      maximum: MAX_STREAM_LENGTH,
      message: `max_length must be an integer from 0 to ${MAX_STREAM_LENGTH}`,
    },
  },
};

/** Save-time checks without sealing (tests of the description). */
export function validateRedisStreamConfig(input: unknown): Validation<RedisStreamConfig> {
  return checkDescribed(redisStreamDescription, input) as Validation<RedisStreamConfig>;
}
