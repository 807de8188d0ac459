import {
  activityVars,
  commonVars,
  int,
  mongoVars,
  rabbitVars,
  redisVars,
  smtpVars,
  ssrfVars,
  str,
  url,
} from '@relay/config';
import type { ConfigOf } from '@relay/config';
import { activityLogVars } from '@relay/activity-log';

export const configSpec = {
  ...commonVars,
  ...rabbitVars,
  ...redisVars,
  ...mongoVars,
  ...activityVars,
  ...activityLogVars,
  port: int('PORT', 'HTTP port of the management API', { default: 8081, min: 0, max: 65535 }),
  healthPort: int(
    'HEALTH_PORT',
    'HTTP port serving /healthz, /readyz and /metrics (the API port serves /healthz and /readyz too, never /metrics)',
    { default: 8094, min: 0, max: 65535 },
  ),
  host: str('HOST', 'address the management API and its health port listen on', { default: '0.0.0.0' }),
  publicBaseUrl: url('PUBLIC_BASE_URL', 'base URL senders use; ingest URLs are {PUBLIC_BASE_URL}/relay/<endpoint_id>', {
    default: 'http://127.0.0.1:8080',
    protocols: ['http:', 'https:'],
  }),
  // Slow clients (docs/security.md "Slow clients"): the gateway's limits, for the port that serves the dashboard
  headersTimeoutMs: int(
    'HEADERS_TIMEOUT_MS',
    'time a client has to send the request line and headers; then 408 and the connection is closed',
    { default: 10000, min: 1000 },
  ),
  bodyTimeoutMs: int(
    'BODY_TIMEOUT_MS',
    'time a client has to send its body after the headers; a request not whole after HEADERS_TIMEOUT_MS + BODY_TIMEOUT_MS gets 408 and the connection is closed',
    { default: 15000, min: 1000 },
  ),
  maxConnections: int(
    'MAX_CONNECTIONS',
    'open connections the API port keeps at once; a connection past it is closed as soon as it opens',
    { default: 1000, min: 10 },
  ),
  dashboardSessionIdleMinutes: int(
    'DASHBOARD_SESSION_IDLE_MINUTES',
    'a dashboard sign-in unused this long ends (docs/dashboard.md)',
    { default: 120, min: 1, max: 1440 },
  ),
  dashboardSessionMaxHours: int(
    'DASHBOARD_SESSION_MAX_HOURS',
    'a dashboard sign-in ends this long after it began, however much it is used',
    { default: 12, min: 1, max: 168 },
  ),
  // Replays (docs/management-api.md "Test requests", "Resend", "Bulk retry")
  gatewayInternalUrl: url(
    'GATEWAY_INTERNAL_URL',
    "a gateway's HEALTH_PORT address, where test requests run through the gateway's pipeline (signed with a key derived from SECRETS_KEYS)",
    { default: 'http://127.0.0.1:8090', protocols: ['http:', 'https:'] },
  ),
  deliveryLimit: int(
    'BROKER_DELIVERY_LIMIT',
    'redeliveries of one message before the broker dead-letters it (quorum x-delivery-limit)',
    { default: 20, min: 1 },
  ),
  publishConfirmTimeoutMs: int(
    'PUBLISH_CONFIRM_TIMEOUT_MS',
    'how long a resend waits for the broker confirm of its deliveries before answering 503 delivery_queue_unavailable',
    { default: 5000, min: 50 },
  ),
  testRequestsPerMinute: int(
    'TEST_REQUESTS_PER_MINUTE',
    'test requests an account may run per minute (they count against no rate limit or quota)',
    { default: 60, min: 1 },
  ),
  resendsPerMinute: int('RESENDS_PER_MINUTE', 'resends an account may ask for per minute', { default: 600, min: 1 }),
  bulkRetryMaxRate: int(
    'BULK_RETRY_MAX_RATE',
    'most deliveries per second one bulk retry publishes (a job may ask for fewer)',
    { default: 100, min: 1, max: 10000 },
  ),
  bulkRetryLeaseMs: int(
    'BULK_RETRY_LEASE_MS',
    'how long a bulk retry stays with the instance running it without a renewal; after that another instance resumes it',
    { default: 30000, min: 1000 },
  ),
  bulkRetryPollMs: int('BULK_RETRY_POLL_MS', 'how often an instance looks for bulk retries to run', {
    default: 2000,
    min: 100,
  }),
  // Alerts (docs/alerts.md)
  dashboardUrl: url('DASHBOARD_URL', "the dashboard's address as people reach it; alerts link into it", {
    default: 'http://127.0.0.1:8081/',
    protocols: ['http:', 'https:'],
  }),
  alertDetectIntervalMs: int(
    'ALERT_DETECT_INTERVAL_MS',
    'how often the failure-rate, rejection-spike and quota conditions of alert rules are checked (one instance at a time)',
    { default: 15000, min: 1000 },
  ),
  // Members (docs/members.md): invitations through the operator's mail relay, sign-in with each account's identity provider
  ...smtpVars,
  ...ssrfVars,
  invitationTtlHours: int('INVITATION_TTL_HOURS', 'an invitation link works this long (and once)', {
    default: 72,
    min: 1,
    max: 720,
  }),
  secretsKeys: str(
    'SECRETS_KEYS',
    'encryption keys for secrets at rest, "keyid:base64(32 bytes)" comma-separated; the first encrypts, all decrypt (rotate by prepending a new key)',
    { secret: true },
  ),
};

export type Config = ConfigOf<typeof configSpec>;
