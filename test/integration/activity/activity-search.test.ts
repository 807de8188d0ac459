import { must } from '@relay/client';
import type { ActivityPage, operations } from '@relay/client';
import type { ActivityMessage, StoredPayloadV1 } from '@relay/contracts';
import { startManagement } from '../management/fixture';
import type { ManagementFixture } from '../management/fixture';
import { attempt, eventId, pipelineOn, request as requestRow } from '../../../libs/activity-log/conformance/fixtures';

/*
 * Item 2 — search that finds, on the real store: the error text matches what a row
 * shows (its outcome label), payload-content and response-status searches read at most 100 rows
 * a call and page on with a cursor ("search older"), and filters that cannot match are a 400
 * naming the field instead of an empty list. docs/management-api.md "Activity log".
 */
let fx: ManagementFixture;
let endpointId: string;
const ids: Record<string, string> = {};
const ROWS = 240;
const T0 = Date.now() - 2 * 3_600_000;
const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();
const customerOf = (i: number): string => `cust_${String(i % 40).padStart(2, '0')}`;

const payloadOf = (event: string, receivedAt: string, body: string): StoredPayloadV1 => ({
  event_id: event,
  account_id: fx.accountId,
  endpoint_id: endpointId,
  received_at: receivedAt,
  request: { method: 'POST', source_ip: '203.0.113.7', headers: {}, query: '' },
  payload: { content_type: 'application/json', body_base64: Buffer.from(body).toString('base64') },
});

beforeAll(async () => {
  fx = await startManagement('activitysearch');
  endpointId = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'orders' } }))).id;
  const own = { account_id: fx.accountId, endpoint_id: endpointId };
  const { pipeline, write } = pipelineOn(fx.store, { keepPerMinute: 1000 });
  const messages: ActivityMessage[] = [];
  const payloads: StoredPayloadV1[] = [];
  for (let i = 0; i < ROWS; i++) {
    const received = at(i * 0.4);
    const ev = (ids[`ok_${i}`] = eventId(`ok${i}`, received));
    messages.push(requestRow(ev, { ...own, target_count: 1, received_at: received }));
    // every 30th row was answered 503 once before it was delivered
    if (i % 30 === 0)
      messages.push(attempt(ev, 'tg_1', 1, 'retrying', { ...own, status_code: 503, error: 'HTTP 503' }));
    messages.push(attempt(ev, 'tg_1', i % 30 === 0 ? 2 : 1, 'delivered', own));
    payloads.push(payloadOf(ev, received, JSON.stringify({ order: i, customer: customerOf(i) })));
  }
  const gone = (ids.gone = eventId('gone', at(50)));
  messages.push(requestRow(gone, { ...own, target_count: 1, received_at: at(50) }));
  messages.push(attempt(gone, 'tg_1', 1, 'failed', { ...own, status_code: 410, error: 'HTTP 410' }));
  // refusals whose reason does not repeat the label the row shows
  messages.push(
    requestRow((ids.media = eventId('media', at(20))), {
      ...own,
      outcome: 'UNSUPPORTED_MEDIA_TYPE',
      reason: 'text/plain is not accepted here',
      target_count: 0,
      received_at: at(20),
    }),
  );
  messages.push(
    requestRow((ids.limited = eventId('limited', at(21))), {
      ...own,
      outcome: 'RATE_LIMITED',
      reason: null,
      target_count: 0,
      received_at: at(21),
    }),
  );
  await Promise.all([write(messages), pipeline.addPayloads(payloads)]);
});
afterAll(() => fx?.close());

type ActivityQuery = NonNullable<operations['listActivity']['parameters']['query']>;

/** Every row of a query, following the cursors; each call's rows at most `limit`. */
async function all(query: ActivityQuery, limit = 50): Promise<{ rows: string[]; calls: number }> {
  const rows: string[] = [];
  let cursor: string | null | undefined = null;
  for (let calls = 1; calls <= 100; calls++) {
    const page: ActivityPage = await must(
      fx.client.GET('/v1/activity', { params: { query: { ...query, limit, ...(cursor ? { cursor } : {}) } } }),
    );
    expect(page.data.length).toBeLessThanOrEqual(limit);
    rows.push(...page.data.map((r) => r.id));
    cursor = page.next_cursor;
    if (!cursor) return { rows, calls };
  }
  throw new Error('paging did not end');
}

describe('error text matches what the row shows', () => {
  it('"Media Type" finds the row that reads "Unsupported Media Type", though its reason does not say it', async () => {
    expect((await all({ error: 'Media Type' })).rows).toEqual([ids.media]);
  });
  it('a label with no reason at all: "rate limited"; the code too: "UNSUPPORTED_MEDIA"', async () => {
    expect((await all({ error: 'rate limited' })).rows).toEqual([ids.limited]);
    expect((await all({ error: 'UNSUPPORTED_MEDIA' })).rows).toEqual([ids.media]);
  });
  it('"Delivery failed" finds the accepted row whose delivery failed, and the reason text still matches', async () => {
    expect((await all({ error: 'delivery failed' })).rows).toEqual([ids.gone]);
    expect((await all({ error: 'not accepted here' })).rows).toEqual([ids.media]);
  });
});

describe('filters that cannot match are a 400 naming the field', () => {
  it.each([
    ['source_ip=not%20an%20ip', 'source_ip', 'must be an IPv4 or IPv6 address'],
    [`from=${encodeURIComponent(at(60))}&to=${encodeURIComponent(at(10))}`, 'from', 'must be before To'],
    [`from=${encodeURIComponent(at(10))}&to=${encodeURIComponent(at(10))}`, 'from', 'must be before To'],
    ['response_status=teapot', 'response_status', 'must be an HTTP status code'],
    [`payload=x&from=${encodeURIComponent(at(-3000))}&to=${encodeURIComponent(at(10))}`, 'payload', '24 hours'],
  ])('%s', async (query, field, message) => {
    // raw: filter values the API refuses, written as a query string, for the 400 naming the field
    const res = await fx.api('get', `/v1/activity?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field, message: expect.stringContaining(message) });
  });
  it('an IPv6 address is an address', async () => {
    await must(fx.client.GET('/v1/activity', { params: { query: { source_ip: '2001:db8::1' } } }));
  });
});

describe('payload-content search: bounded per call, paged with the cursor', () => {
  it('finds every row whose payload holds the text, reading at most 100 rows a call', async () => {
    const expected = Array.from({ length: ROWS }, (_, i) => i)
      .filter((i) => customerOf(i) === 'cust_07')
      .map((i) => ids[`ok_${i}`]);
    const { rows, calls } = await all({ payload: 'CUST_07' });
    expect(new Set(rows)).toEqual(new Set(expected));
    expect(rows).toHaveLength(expected.length);
    // 240 accepted rows at 100 a call: the search needs three calls ("Search older" twice)
    expect(calls).toBeGreaterThanOrEqual(3);
  });
  it('a page ends at `limit` matches and the next call reads on from the last row read', async () => {
    const { rows } = await all({ payload: '"order"' }, 7);
    expect(rows).toHaveLength(ROWS);
    expect(new Set(rows).size).toBe(ROWS);
  });
  it('refusals have no payload: a text in their reason is not found by it', async () => {
    expect((await all({ payload: 'text/plain' })).rows).toEqual([]);
  });
});

describe('response-status search', () => {
  it('a code: the rows with an attempt answered 503, also those delivered after', async () => {
    const expected = Array.from({ length: ROWS }, (_, i) => i)
      .filter((i) => i % 30 === 0)
      .map((i) => ids[`ok_${i}`]);
    expect(new Set((await all({ response_status: '503' })).rows)).toEqual(new Set(expected));
  });
  it('a class: 4xx finds the 410, 5XX the 503s, 2xx every delivered row', async () => {
    expect((await all({ response_status: '4xx' })).rows).toEqual([ids.gone]);
    expect((await all({ response_status: '5XX' })).rows).toHaveLength(ROWS / 30);
    expect((await all({ response_status: '2xx' })).rows).toHaveLength(ROWS);
  });
  it('combines with the payload search', async () => {
    expect((await all({ response_status: '503', payload: '"order":30,' })).rows).toEqual([ids.ok_30]);
  });
});
