import type { ActivityRequestV1, StoredPayloadV1 } from '@relay/contracts';
import type { EndpointRecord } from '@relay/store';
import { prepareSettings } from '../endpoint-settings';
import type { EndpointView } from '../endpoint-view';
import { DeliveryQueueUnavailableError } from '@relay/broker';
import type {
  CaptchaVerdict,
  DriftSample,
  IdempotencyClaim,
  LimitDecision,
  LimitRequest,
  PoolAnswer,
  RulePool,
  SigningCertificates,
} from '../ports';
import { compilePooledRules, evaluatePooled } from '../rules/pooled-rules';
import type { PooledJob } from '../rules/pooled-rules';
import type { BodyReader, IngestPorts } from './ingest';
import type { IngestRequest } from './steps';

/** Shared by the pipeline tests; not part of the folder's public API. */
export function endpointRecord(over: Partial<EndpointRecord> = {}): EndpointRecord {
  const now = new Date('2025-03-10T12:00:00Z');
  return {
    id: 'ep_1',
    account_id: 'acc_1',
    name: 'e',
    enabled: true,
    paused: false,
    methods: ['POST'],
    payload_format: 'json',
    inbound_auth: { type: 'NONE' },
    required_headers: [],
    body_filters: [],
    field_rules: [],
    ip_access: { allow: [], deny: [] },
    captcha: null,
    rate_limit_per_minute: null,
    query_param_name: null,
    query_param_required: true,
    maintenance_windows: [],
    revision: 1,
    created_at: now,
    updated_at: now,
    ...over,
  };
}

/** Secrets in test records are stored as `sealed:<plain>`. */
export const openTestSecret = (sealed: string): string => sealed.replace(/^sealed:/, '');

export function view(over: Partial<EndpointRecord> = {}, targets = 1): EndpointView {
  const endpoint = endpointRecord(over);
  return {
    endpoint,
    settings: prepareSettings(endpoint, openTestSecret),
    targets: Array.from({ length: targets }, (_, i) => ({
      id: `tg_${i}`,
      kind: 'webhook',
      channel: 'webhook' as const,
      route: null,
      routing: null,
      orderKey: null,
    })),
    rulesKey: `${endpoint.id}@${endpoint.revision}`,
    plan: { payload_limit_bytes: 1024, monthly_accepted_events: 1000 },
  };
}

export function request(over: Partial<IngestRequest> = {}): IngestRequest {
  return {
    endpointId: 'ep_1',
    eventId: 'evt_1',
    receivedAt: new Date('2025-03-10T12:00:00Z'),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    rawQuery: '',
    publicUrl: 'https://relay.example/relay/ep_1',
    sourceIp: '203.0.113.7',
    ...over,
  };
}

/** In-memory ports that record what the pipeline did. */
export function fakePorts(
  v: EndpointView | null,
  opts: {
    limit?: LimitDecision;
    captcha?: CaptchaVerdict;
    publishFails?: boolean;
    rules?: RulePool;
    /** quarantined requests kept per hour; unbounded when absent */
    quarantinePerHour?: number;
    /** signing certificates by URL; absent: every fetch fails */
    certificates?: SigningCertificates;
  } = {},
) {
  const rows: ActivityRequestV1[] = [];
  const published: unknown[] = [];
  const payloads: StoredPayloadV1[] = [];
  const drift: DriftSample[] = [];
  const calls = {
    admit: [] as LimitRequest[],
    refund: 0,
    captcha: 0,
    handshakes: 0,
    quarantined: 0,
    certificates: [] as string[],
    confirmations: [] as string[],
  };
  // idempotency keys in memory: `p:` while a request holds one, `a:` once it was accepted
  const keys = new Map<string, string>();
  const ports: IngestPorts = {
    endpoints: { get: async () => v },
    events: {
      async publishDeliveries(d) {
        if (opts.publishFails) throw new DeliveryQueueUnavailableError(new Error('down'));
        published.push(...d);
      },
      async publishActivity(row) {
        if (opts.publishFails) throw new DeliveryQueueUnavailableError(new Error('down'));
        rows.push(row);
      },
    },
    activity: { record: (row) => rows.push(row) },
    limiter: {
      async admit(req) {
        calls.admit.push(req);
        return opts.limit ?? { admitted: true, counter: 'shared' };
      },
      // counts MAC handshake answers like the Redis limiter does within one minute
      async admitHandshake(_endpointId, perMinute) {
        calls.handshakes += 1;
        return calls.handshakes <= perMinute ? { admitted: true } : { admitted: false, retryAfterSeconds: 60 };
      },
      async refund() {
        calls.refund += 1;
      },
    },
    captcha: {
      async verify() {
        calls.captcha += 1;
        return opts.captcha ?? 'verified';
      },
    },
    payloads: { record: (p) => payloads.push(p) },
    certificates: {
      async get(url, provider, now) {
        calls.certificates.push(url);
        return opts.certificates
          ? opts.certificates.get(url, provider, now)
          : { ok: false, unavailable: 'ECONNREFUSED' };
      },
    },
    subscriptions: {
      async confirm(url) {
        calls.confirmations.push(url);
        return { ok: true };
      },
    },
    quarantine: {
      async take() {
        calls.quarantined += 1;
        return calls.quarantined <= (opts.quarantinePerHour ?? Number.POSITIVE_INFINITY);
      },
    },
    drift: { learn: (sample) => void drift.push(sample) },
    // every request's rules inline unless a test gives a pool
    rules: opts.rules ?? fakeRulePool(Number.POSITIVE_INFINITY).pool,
    idempotency: {
      async claim(endpointId, key, eventId): Promise<IdempotencyClaim> {
        const held = keys.get(`${endpointId}|${key}`);
        if (held === undefined) {
          keys.set(`${endpointId}|${key}`, `p:${eventId}`);
          return { state: 'claimed' };
        }
        return held.startsWith('a:') ? { state: 'replay', eventId: held.slice(2) } : { state: 'in_flight' };
      },
      async complete(endpointId, key, eventId) {
        keys.set(`${endpointId}|${key}`, `a:${eventId}`);
      },
      async release(endpointId, key) {
        keys.delete(`${endpointId}|${key}`);
      },
    },
  };
  return { ports, rows, published, payloads, keys, calls, drift };
}

/**
 * A rule pool in this thread: jobs are evaluated with the worker's own functions, or answered
 * `answer`; each job and its account are kept in `jobs`.
 */
export function fakeRulePool(inlineCost: number, answer?: PoolAnswer) {
  const jobs: { accountId: string; job: PooledJob }[] = [];
  const pool: RulePool = {
    inlineCost,
    deadlineMs: 500,
    async evaluate(accountId, job) {
      jobs.push({ accountId, job });
      return answer ?? { done: evaluatePooled(compilePooledRules(job.rules), job, () => undefined) };
    },
  };
  return { pool, jobs };
}

export function body(text: string | 'too_large' | 'timed_out'): BodyReader {
  return {
    read: async () => (text === 'too_large' || text === 'timed_out' ? text : Buffer.from(text)),
    timeoutMs: 15000,
  };
}
