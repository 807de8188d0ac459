import { activityVars, commonVars, int, mongoVars, redisVars, str, url } from '@relay/config';
import type { ConfigOf } from '@relay/config';

export const configSpec = {
  ...commonVars,
  ...redisVars,
  ...mongoVars,
  ...activityVars,
  port: int('PORT', 'HTTP port of the management API', { default: 8081, min: 0, max: 65535 }),
  healthPort: int('HEALTH_PORT', 'HTTP port serving /healthz, /readyz and /metrics (the API port serves /healthz and /readyz too, never /metrics)', { default: 8094, min: 0, max: 65535 }),
  host: str('HOST', 'address the management API and its health port listen on', { default: '0.0.0.0' }),
  publicBaseUrl: url('PUBLIC_BASE_URL', 'base URL senders use; ingest URLs are {PUBLIC_BASE_URL}/relay/<endpoint_id>', { default: 'http://127.0.0.1:8080', protocols: ['http:', 'https:'] }),
  secretsKeys: str('SECRETS_KEYS', 'encryption keys for secrets at rest, "keyid:base64(32 bytes)" comma-separated; the first encrypts, all decrypt (rotate by prepending a new key)', { secret: true }),
};

export type Config = ConfigOf<typeof configSpec>;
