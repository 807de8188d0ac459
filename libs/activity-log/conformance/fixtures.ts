import { collectionsOf, createActivityWriter, ActivityPipeline } from '../../../test/support/activity-log-internals';
import { ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1, timedId } from '@relay/contracts';
import type { ActivityAttemptV1, ActivityMessage, ActivityRequestV1, StoredPayloadV1 } from '@relay/contracts';
import { connectStore, toActivity } from '@relay/store';
import type { Store } from '@relay/store';
import type { ActivityListQuery } from '@relay/activity-log';
import type { FlushStats, PipelineOptions } from '../../../test/support/activity-log-internals';
import { testNamespace } from '../../../test/support/infra';

export const DAY_MS = 86_400_000;

/**
 * The real store on a database of the test file's own (`label`), connected before its tests and
 * dropped after them. Call at the top of a file; the getter gives the store inside tests.
 */
export function fileStore(label: string): () => Store {
  const { mongodbUrl } = testNamespace(label);
  let store: Store;
  beforeAll(async () => {
    store = await connectStore(mongodbUrl);
  });
  afterAll(async () => {
    await store.connection.dropDatabase();
    await store.close();
  });
  return () => store;
}

/** An event id carrying `at` (the gateway's ids carry their arrival time; the log is partitioned by it). */
export const eventId = (label: string, at: string | number = Date.now()): string =>
  timedId('evt', typeof at === 'number' ? at : Date.parse(at), `_${label}`);

/** A list query of every row of `account` up to a day ahead, narrowed by `over`. */
export const listQuery = (account: string, over: Partial<ActivityListQuery> = {}): ActivityListQuery => ({
  account,
  endpointId: null,
  fromMs: 0,
  toMs: Date.now() + DAY_MS,
  cursor: null,
  limit: 200,
  status: 'all',
  sourceIp: null,
  errorText: null,
  payload: null,
  responseStatus: null,
  ...over,
});

export const request = (eventId: string, over: Partial<ActivityRequestV1> = {}): ActivityRequestV1 => ({
  type: ACTIVITY_REQUEST_V1,
  event_id: eventId,
  account_id: 'acc_1',
  endpoint_id: 'ep_1',
  received_at: new Date().toISOString(),
  method: 'POST',
  source_ip: '203.0.113.7',
  outcome: 'ACCEPTED',
  reason: null,
  target_count: 2,
  test: false,
  ...over,
});

export const attempt = (
  eventId: string,
  target: string,
  n: number,
  state: ActivityAttemptV1['state'],
  over: Partial<ActivityAttemptV1> = {},
): ActivityAttemptV1 => ({
  type: ACTIVITY_ATTEMPT_V1,
  event_id: eventId,
  delivery_id: `dlv_${eventId}_${target}`,
  account_id: 'acc_1',
  endpoint_id: 'ep_1',
  target_id: target,
  target_kind: 'webhook',
  attempt: n,
  attempted_at: new Date(Date.now() + n * 1000).toISOString(),
  state,
  status_code: state === 'delivered' ? 200 : 503,
  duration_ms: 12.5,
  error: state === 'delivered' ? null : 'HTTP 503',
  next_attempt_at: state === 'retrying' ? new Date(Date.now() + 30_000).toISOString() : null,
  ...over,
});

export async function row(store: Store, eventId: string) {
  const doc = await collectionsOf(store).row(eventId);
  return doc ? toActivity(doc) : null;
}

/** A writer's options for tests: nothing held, a flush every 10 ms, 30 days kept. */
export const WRITER_OPTIONS: PipelineOptions = {
  holdMs: 0,
  maxHeld: 1000,
  batchSize: 10_000,
  maxWaitMs: 10,
  payloadMessagesPerFlush: 16,
  keepPerMinute: 10,
  retentionMs: 30 * DAY_MS,
};

/** An accepted event's payload message: `body` as the payload, the fixtures' request. */
export const payloadOf = (
  id: string,
  account: string,
  endpoint: string,
  at: string,
  body: string,
): StoredPayloadV1 => ({
  event_id: id,
  account_id: account,
  endpoint_id: endpoint,
  received_at: at,
  request: { method: 'POST', source_ip: '203.0.113.7', headers: {}, query: '' },
  payload: { content_type: 'application/json', body_base64: Buffer.from(body).toString('base64') },
});

/** The writer's pipeline on the real store, with what each flush wrote. */
export function pipelineOn(store: Store, over: Partial<PipelineOptions> = {}) {
  const flushes: (FlushStats & { messages: number })[] = [];
  const pipeline = new ActivityPipeline(createActivityWriter(collectionsOf(store)), {
    ...WRITER_OPTIONS,
    onFlush: (s) => flushes.push(s),
    ...over,
  });
  /** feeds messages and resolves once every one of them was written */
  const write = (messages: ActivityMessage[]) => Promise.all(messages.map((m) => pipeline.add(m)));
  return { pipeline, write, flushes };
}
