import { errorOf, must } from '@relay/client';
import type { ActivityPage, BulkRetry } from '@relay/client';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Bulk retry of failed deliveries, every service its own process: a receiver
 * that answers 500 until it "comes back", targets without retries so each event fails for good
 * at once, then a job that retries the Errors group of a window, read back through the API.
 */
let stack: Stack;
let receiver: TestReceiver;
let failing = true;
const started = new Date(Date.now() - 60_000).toISOString();

beforeAll(async () => {
  receiver = await TestReceiver.start();
  receiver.respondWith(() => (failing ? { status: 500, body: 'down' } : { status: 200, body: 'ok' }));
  // private: it kills the management API; a short bulk-retry lease
  stack = await startStack('bulkretry', {
    overrides: {
      // a short lease, so a crashed instance's run is taken over within seconds
      'management-api': { BULK_RETRY_LEASE_MS: '3000', BULK_RETRY_POLL_MS: '200', BULK_RETRY_MAX_RATE: '1000' },
      'activity-writer': { BATCH_MAX_WAIT_MS: '200' },
    },
  });
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

/** An endpoint with one webhook target that never retries: a 500 fails the delivery for good. */
async function failingEndpoint(): Promise<string> {
  const ep = await must(stack.client.POST('/v1/endpoints', { body: { name: 'bulk', rate_limit_per_minute: 100000 } }));
  // the breaker is not what this file tests: it must never hold these deliberately failing deliveries
  await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId: ep.id } },
      body: {
        kind: 'webhook',
        name: 'r',
        config: { url: receiver.url(), enforce_https: false },
        retry_schedule_ms: [],
        breaker: { failure_rate_pct: 100, min_attempts: 100_000, window_s: 10, cool_down_s: 1, flag_after_open_s: 60 },
      },
    }),
  );
  return ep.id;
}

/** Sends `n` events, 20 at a time; returns their event ids. */
async function send(endpointId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, n - i) }, async (_, k) => {
        const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ n: i + k }),
        });
        expect(res.status).toBe(202);
        return res.headers.get('x-relay-event-id')!;
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

/** Every row id of the endpoint in a status group, following next_cursor to the end. */
async function listAll(endpointId: string, status: 'errors' | 'completed'): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let calls = 0; calls < 500; calls++) {
    const page: ActivityPage = await must(
      stack.client.GET('/v1/activity', {
        params: {
          query: { endpoint_id: endpointId, status, from: started, limit: 200, ...(cursor ? { cursor } : {}) },
        },
      }),
    );
    ids.push(...page.data.map((r) => r.id));
    cursor = page.next_cursor;
    if (!cursor) return ids;
  }
  throw new Error('activity listing did not end within 500 pages');
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && new Set([...a, ...b]).size === a.length;

/** Waits until exactly `ids` are listed in the group; a listing walks every row, so once a second. */
async function allInGroup(
  endpointId: string,
  ids: string[],
  status: 'errors' | 'completed',
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let listed: string[] = [];
  while (Date.now() < deadline) {
    listed = await listAll(endpointId, status);
    if (sameSet(listed, ids)) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${ids.length} rows in ${status}; ${listed.length} listed\n${await explain(ids, listed)}`,
  );
}

/**
 * What a failed wait needs to be understood: the rows missing (or extra) as GET /v1/activity/:id
 * shows them — a row in the wrong group is a message or merge problem, a row in the right group
 * that the listing misses is an index problem — and what the activity writer logged.
 */
async function explain(ids: string[], listed: string[]): Promise<string> {
  const want = new Set(ids);
  const got = new Set(listed);
  const odd = [...ids.filter((id) => !got.has(id)), ...listed.filter((id) => !want.has(id))].slice(0, 3);
  const rows = await Promise.all(
    odd.map(async (eventId) => {
      const res = await stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } });
      return JSON.stringify(res.data ?? res.error);
    }),
  );
  const writerLog = (stack.services['activity-writer']?.output() ?? '')
    .split('\n')
    .filter((l) => /warn|error/i.test(l))
    .slice(-20);
  return [
    `rows missing or extra: ${odd.join(', ')}`,
    ...rows,
    '--- activity-writer warnings and errors ---',
    ...writerLog,
  ].join('\n');
}

const job = (jobId: string) => must(stack.client.GET('/v1/bulk-retries/{jobId}', { params: { path: { jobId } } }));
const cancelJob = (jobId: string) =>
  stack.client.POST('/v1/bulk-retries/{jobId}/cancel', { params: { path: { jobId } } });
async function jobWhen(id: string, ok: (j: BulkRetry) => boolean, timeoutMs: number, what: string): Promise<BulkRetry> {
  const deadline = Date.now() + timeoutMs;
  let last: BulkRetry | null = null;
  while (Date.now() < deadline) {
    const now = await job(id);
    if (ok(now)) return now;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the job: ${JSON.stringify(last)}`);
}

/** Event ids the receiver got with a 200, i.e. after it came back. */
const deliveredAfter = (from: number) =>
  new Set(receiver.requests.slice(from).map((r) => String(r.headers['x-relay-event-id'])));

describe('bulk retry: POST /v1/bulk-retries, GET /v1/bulk-retries/:id, POST …/cancel', () => {
  it('retries 1,000 failed deliveries once the receiver is back: the job reaches done and every row ends Completed', async () => {
    failing = true;
    const endpointId = await failingEndpoint();
    const ids = await send(endpointId, 1000);
    await allInGroup(endpointId, ids, 'errors', 180000);

    failing = false;
    const before = receiver.requests.length;
    const created = await stack.client.POST('/v1/bulk-retries', {
      body: { endpoint_id: endpointId, status: 'errors', from: started },
    });
    expect(created.response.status).toBe(202);
    const createdJob = created.data!;
    expect(createdJob).toMatchObject({
      state: 'queued',
      filter: { endpoint_id: endpointId, status: 'errors' },
      rate_per_second: 1000,
    });

    const done = await jobWhen(createdJob.id, (j) => j.state === 'done', 240000, 'the job to finish');
    expect(done.progress).toMatchObject({
      rows_scanned: 1000,
      rows_retried: 1000,
      deliveries_queued: 1000,
      skipped_no_payload: 0,
      skipped_target_gone: 0,
    });
    expect(done.finished_at).not.toBeNull();

    await allInGroup(endpointId, ids, 'completed', 120000);
    expect(await listAll(endpointId, 'errors')).toEqual([]);
    expect(sameSet([...deliveredAfter(before)], ids)).toBe(true);
    // every retried delivery is a new delivery id under its event's id
    const retried = receiver.requests.slice(before);
    expect(new Set(retried.map((r) => r.headers['x-relay-delivery-id'])).size).toBe(1000);
    expect(retried.every((r) => String(r.headers['x-relay-delivery-id']).includes('_r'))).toBe(true);
    // a machine shared with the rest of the suite can take minutes for 2,000 deliveries and 1,000 rows
  }, 600_000);

  it('can be cancelled: it stops where it is, says cancelled, and a finished job cannot be cancelled again', async () => {
    failing = true;
    const endpointId = await failingEndpoint();
    const ids = await send(endpointId, 60);
    await allInGroup(endpointId, ids, 'errors', 120000);

    // two deliveries a second: the job is still at work when the cancel comes
    const created = await must(
      stack.client.POST('/v1/bulk-retries', { body: { endpoint_id: endpointId, from: started, rate_per_second: 2 } }),
    );
    // running: its progress is saved once a page (50 rows, 25 s at this rate) is done, so the
    // cancel comes in the middle of its first page
    await jobWhen(created.id, (j) => j.state === 'running', 60000, 'the job to start');
    const cancel = await cancelJob(created.id);
    expect(cancel.response.status).toBe(202);
    expect(cancel.data?.cancel_requested).toBe(true);

    const cancelled = await jobWhen(created.id, (j) => j.state === 'cancelled', 30000, 'the job to stop');
    expect(cancelled.progress.deliveries_queued).toBeLessThan(60);
    expect(cancelled.finished_at).not.toBeNull();
    expect((await job(created.id)).progress).toEqual(cancelled.progress);
    const again = await cancelJob(created.id);
    expect([again.response.status, again.error?.code]).toEqual([409, 'job_finished']);
  }, 300_000);

  it('survives a management-api crash: another process takes the run over from its saved cursor and finishes it', async () => {
    failing = true;
    const endpointId = await failingEndpoint();
    const ids = await send(endpointId, 150);
    await allInGroup(endpointId, ids, 'errors', 120000);
    failing = false;
    const before = receiver.requests.length;

    const created = await must(
      stack.client.POST('/v1/bulk-retries', { body: { endpoint_id: endpointId, from: started, rate_per_second: 25 } }),
    );
    // a page (50 rows) saved: the cursor is in the store
    const saved = await jobWhen(
      created.id,
      (j) => j.progress.rows_scanned >= 50 && j.progress.rows_scanned < 150,
      120000,
      'the first page saved',
    );
    await stack.restart('management-api', 'SIGKILL');

    const done = await jobWhen(created.id, (j) => j.state === 'done', 240000, 'the job to finish after the restart');
    expect(done.runs).toBeGreaterThanOrEqual(2);
    // resumed, not restarted: the counts went on from what the crashed run had saved (the page in
    // hand at the crash is listed again; its rows already delivered are no longer in Errors)
    expect(done.progress.rows_scanned).toBeGreaterThanOrEqual(saved.progress.rows_scanned);
    expect(done.progress.deliveries_queued).toBeGreaterThanOrEqual(saved.progress.deliveries_queued);
    await allInGroup(endpointId, ids, 'completed', 120000);
    expect(sameSet([...deliveredAfter(before)], ids)).toBe(true);
    expect(new Set(receiver.requests.slice(before).map((r) => r.headers['x-relay-delivery-id'])).size).toBe(150);
  }, 400_000);

  it("refuses a filter it cannot run (status other than errors, an unknown endpoint) and hides other accounts' jobs", async () => {
    // raw: a status group other than errors, which the request type cannot hold
    const bad = await stack.api('/v1/bulk-retries', {
      method: 'POST',
      body: { status: 'completed', rate_per_second: 0 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['rate_per_second', 'status']);
    const unknown = await stack.client.POST('/v1/bulk-retries', { body: { endpoint_id: 'ep_00000000000000000000' } });
    expect(errorOf(unknown.response, unknown.error).status).toBe(404);
    expect(
      (await stack.client.GET('/v1/bulk-retries/{jobId}', { params: { path: { jobId: 'brj_00000000000000000000' } } }))
        .response.status,
    ).toBe(404);
  });
});
