import { must } from '@relay/client';
import type { BulkRetryCreate, RelayApiError, TargetCreate } from '@relay/client';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Bulk retry: it says beforehand how many failed deliveries (of how many events)
 * it would queue (`POST /v1/bulk-retries/preview`, queuing nothing), and the deliveries it adds to
 * a row count against the per-event ceiling resends use (MAX_RESENT_DELIVERIES_PER_EVENT, 100): a
 * row already at it is skipped and counted so, and a resend after it is refused. Every service
 * its own process; a receiver that answers 500 to targets that never retry, so every delivery
 * fails for good at once.
 */
let stack: Stack;
let receiver: TestReceiver;
const started = new Date(Date.now() - 60_000).toISOString();
const CEILING = 100;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  receiver.respondWith({ status: 500, body: 'down' });
  // the shared stack looks for bulk retries every 200 ms and runs them at 1,000 a second
  stack = await startStack('bulkceiling');
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

/** An endpoint with two webhook targets that never retry and whose breaker never opens (it is not under test). */
async function failingEndpoint(): Promise<string> {
  const ep = await must(
    stack.client.POST('/v1/endpoints', { body: { name: 'ceiling', rate_limit_per_minute: 100000 } }),
  );
  for (const name of ['one', 'two']) {
    const body: TargetCreate = {
      kind: 'webhook',
      name,
      config: { url: receiver.url(`/${name}`), enforce_https: false },
      retry_schedule_ms: [],
      breaker: { failure_rate_pct: 100, min_attempts: 100_000, window_s: 10, cool_down_s: 1, flag_after_open_s: 60 },
    };
    await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId: ep.id } }, body }),
    );
  }
  return ep.id;
}

async function send(endpointId: string): Promise<string> {
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"order":1}',
  });
  expect(res.status).toBe(202);
  return res.headers.get('x-relay-event-id')!;
}

async function until<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | null | undefined | false>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < deadline) {
    const got = await check();
    if (got) return got;
    last = got;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${JSON.stringify(last)})`);
}

/** The row once it holds `n` deliveries, each failed for good. */
const failedWith = (eventId: string, n: number) =>
  until(`${eventId} with ${n} failed deliveries`, 120_000, async () => {
    // 404 until the writer has the row
    const row = await must(stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } })).catch(
      (err: unknown) => {
        if ((err as RelayApiError).status === 404) return null;
        throw err;
      },
    );
    return (
      row !== null &&
      row.deliveries.length === n &&
      row.deliveries.every((d) => d.state === 'failed') &&
      row.status === 'errors' &&
      row
    );
  });

/** Listed in Errors (the bulk retry walks that group's pages, which the writer fills up to 30 s later). */
const inErrors = (endpointId: string, ids: string[]) =>
  until(`${ids.join(', ')} listed in Errors`, 120_000, async () => {
    const page = await must(
      stack.client.GET('/v1/activity', {
        params: { query: { endpoint_id: endpointId, status: 'errors', from: started, limit: 200 } },
      }),
    );
    const listed = new Set(page.data.map((r) => r.id));
    return ids.every((id) => listed.has(id));
  });

const row = (eventId: string) => must(stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } }));
const resend = (eventId: string) =>
  must(stack.client.POST('/v1/activity/{eventId}/resend', { params: { path: { eventId } } }));
const preview = (body: BulkRetryCreate) => must(stack.client.POST('/v1/bulk-retries/preview', { body }));

const jobDone = (id: string) =>
  until(`bulk retry ${id} done`, 120_000, async () => {
    const job = await must(stack.client.GET('/v1/bulk-retries/{jobId}', { params: { path: { jobId: id } } }));
    return job.state === 'done' && job;
  });

describe('bulk retry: its count beforehand, and the per-event ceiling it shares with resends', () => {
  it('a preview of a window without failed deliveries counts nothing and starts nothing', async () => {
    const ep = await must(stack.client.POST('/v1/endpoints', { body: { name: 'quiet' } }));
    expect(await preview({ endpoint_id: ep.id, from: started })).toMatchObject({
      deliveries: 0,
      events: 0,
      complete: true,
      filter: { endpoint_id: ep.id, status: 'errors' },
    });
    expect((await must(stack.client.GET('/v1/bulk-retries'))).data).toEqual([]);
  });

  it('counts beforehand exactly what the job then queues; a row at the ceiling is skipped and counted, and resends after it are refused', async () => {
    const endpointId = await failingEndpoint();
    const [a, b] = [await send(endpointId), await send(endpointId)];
    await failedWith(a!, 2);
    await failedWith(b!, 2);

    // A: 49 resends to both targets use 98 of its 100
    for (let i = 0; i < (CEILING - 2) / 2; i++) await resend(a!);
    await failedWith(a!, 2 + CEILING - 2);
    await inErrors(endpointId, [a!, b!]);

    // the preview queues nothing: A's 2 still fit (98 + 2 = 100)
    const body = { endpoint_id: endpointId, from: started };
    const first = await preview(body);
    expect(first).toMatchObject({ deliveries: 4, events: 2, complete: true, counts: { skipped_resend_limit: 0 } });
    expect((await row(a!)).deliveries).toHaveLength(CEILING);

    const job1 = await must(stack.client.POST('/v1/bulk-retries', { body }));
    expect((await jobDone(job1.id)).progress).toMatchObject({
      deliveries_queued: first.deliveries,
      rows_retried: first.events,
      skipped_resend_limit: 0,
    });
    // the bulk retry grew A's row by 2: it is at the ceiling now
    await failedWith(a!, CEILING + 2);
    await failedWith(b!, 4);
    await inErrors(endpointId, [a!, b!]);

    expect(await preview(body)).toMatchObject({ deliveries: 2, events: 1, counts: { skipped_resend_limit: 1 } });
    await expect(resend(a!)).rejects.toMatchObject({
      status: 409,
      code: 'resend_limit_reached',
      message: expect.stringContaining(`already delivered again ${CEILING} times`),
    });

    const job2 = await must(stack.client.POST('/v1/bulk-retries', { body }));
    expect((await jobDone(job2.id)).progress).toMatchObject({
      rows_scanned: 2,
      deliveries_queued: 2,
      rows_retried: 1,
      skipped_resend_limit: 1,
    });
    await failedWith(b!, 6);
    // A's row did not grow past its ceiling
    expect((await row(a!)).deliveries).toHaveLength(CEILING + 2);
  }, 600_000);

  it('refuses a preview it cannot run, as the job would be refused', async () => {
    // raw: a status the document refuses, which the typed client would not send
    const bad = await stack.api('/v1/bulk-retries/preview', { method: 'POST', body: { status: 'completed' } });
    expect([bad.status, bad.body.errors.map((e: { field: string }) => e.field)]).toEqual([400, ['status']]);
    await expect(preview({ endpoint_id: 'ep_00000000000000000000' })).rejects.toMatchObject({ status: 404 });
  });
});
