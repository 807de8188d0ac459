import { must } from '@relay/client';
import type { ActivityRow } from '@relay/client';
import { eventually } from '../support/infra';
import { activityRowWhen } from '../support/api-client';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Quarantine and re-run (docs/ingest.md "Quarantine", docs/management-api.md "Re-run"), seen
 * from outside: a sender's refused request kept, the endpoint's rule changed, the request re-run
 * through the gateway's pipeline and delivered once, its row linked to the original.
 */
let stack: Stack;
let receiver: TestReceiver;
const TOKEN = 'sender-token-0123456789';

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startStack('quarantine');
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

async function filteredEndpoint(): Promise<string> {
  const endpoint = await must(
    stack.client.POST('/v1/endpoints', {
      body: {
        name: 'quarantine',
        inbound_auth: { type: 'BEARER', tokens: [TOKEN] },
        body_filters: [{ kind: 'contains', value: '"paid"' }],
      },
    }),
  );
  await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId: endpoint.id } },
      body: {
        kind: 'webhook',
        name: 'r',
        config: { url: receiver.url(), enforce_https: false, forward_headers: { mode: 'all' } },
      },
    }),
  );
  return endpoint.id;
}

const post = (endpointId: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

/** The endpoint's only row so far: a refused request answers no event id, the log names it. */
const onlyRow = (endpointId: string): Promise<string> =>
  eventually(
    async () => {
      const { data } = await stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpointId } } });
      return data?.data.length === 1 ? data.data[0]!.id : undefined;
    },
    15000,
    'the refused row listed',
  );

const rowWhen = (eventId: string, ok: (row: ActivityRow) => boolean, what: string) =>
  activityRowWhen(stack.client, eventId, ok, what);

/** POST …/rerun as a client following the documented answer: 409 payload_not_stored means "not yet". */
const rerun = (eventId: string) =>
  eventually(
    async () => {
      const res = await stack.client.POST('/v1/activity/{eventId}/rerun', { params: { path: { eventId } } });
      return res.error?.code === 'payload_not_stored' ? undefined : res;
    },
    10000,
    'the kept request to be stored',
  );

/**
 * The endpoint's body filter becomes "contains `"<field>"`", and is in force at the gateway
 * once a test request of such a body passes it.
 */
async function filterBy(endpointId: string, field: string): Promise<void> {
  await must(
    stack.client.PATCH('/v1/endpoints/{endpointId}', {
      params: { path: { endpointId } },
      body: { body_filters: [{ kind: 'contains', value: `"${field}"` }] },
    }),
  );
  await eventually(
    async () =>
      (
        await stack.client.POST('/v1/endpoints/{endpointId}/test', {
          params: { path: { endpointId } },
          body: { body: { state: 'probe', [field]: 0 } },
        })
      ).response.status === 202,
    10000,
    'the new filter in force',
  );
}

const deliveriesOf = (eventId: string) => receiver.requests.filter((q) => q.headers['x-relay-event-id'] === eventId);

it('a filtered request is kept; re-run under the same filter it is refused again; with the filter changed it is delivered once, linked to the original', async () => {
  const endpointId = await filteredEndpoint();
  const body = '{"state":"open","order":41}';
  const refused = await post(endpointId, body, { authorization: `Bearer ${TOKEN}`, 'x-trace': 'abc' });
  expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([
    400,
    'request_body_filter_failed',
  ]);
  const original = await onlyRow(endpointId);
  const row = await rowWhen(original, (r) => r.quarantine !== null, 'the refused row');
  expect(row).toMatchObject({ outcome: 'REQUEST_BODY_FILTER_FAILED', quarantine: 'kept', rerun_of: null });

  // kept as it came, credentials removed
  const kept = await must(
    stack.client.GET('/v1/activity/{eventId}/request', { params: { path: { eventId: original } } }),
  );
  expect(kept.body_text).toBe(body);
  expect(kept.headers['x-trace']).toBe('abc');
  expect(kept.headers.authorization).toBeUndefined();

  // the rule unchanged: refused again, its row kept and linked
  const again = await rerun(original);
  expect(again.response.status).toBe(422);
  expect(again.error).toMatchObject({ code: 'rerun_rejected', ingest_code: 'request_body_filter_failed' });
  const againId = again.error && 'event_id' in again.error ? again.error.event_id : null;
  expect(await rowWhen(againId!, () => true, 'the second refusal')).toMatchObject({
    quarantine: 'kept',
    rerun_of: original,
  });

  await filterBy(endpointId, 'order');

  const accepted = await must(
    stack.client.POST('/v1/activity/{eventId}/rerun', { params: { path: { eventId: original } } }),
  );
  expect(accepted).toMatchObject({ outcome: 'ACCEPTED', target_count: 1, rerun_of: original, replayed: false });
  // asked twice, one event
  const twice = await must(
    stack.client.POST('/v1/activity/{eventId}/rerun', { params: { path: { eventId: original } } }),
  );
  expect(twice).toMatchObject({ event_id: accepted.event_id, replayed: true });

  const done = await rowWhen(accepted.event_id, (r) => r.status === 'completed', 'the re-run delivered');
  expect(done).toMatchObject({ outcome: 'ACCEPTED', rerun_of: original, quarantine: null, test: false });
  const delivered = deliveriesOf(accepted.event_id);
  expect(delivered).toHaveLength(1);
  expect(delivered[0]!.body.toString()).toBe(body);
  expect(delivered[0]!.headers['x-trace']).toBe('abc');
  expect(delivered[0]!.headers.authorization).toBeUndefined();
  expect(receiver.requests.filter((q) => q.body.toString() === body)).toHaveLength(1);
});

it('a request refused before authentication succeeded is never kept', async () => {
  const endpointId = await filteredEndpoint();
  const refused = await post(endpointId, '{"state":"open"}', { authorization: 'Bearer wrong-token-0000000000' });
  expect(refused.status).toBe(401);
  const id = await onlyRow(endpointId);
  expect(await rowWhen(id, () => true, 'the refused row')).toMatchObject({ outcome: 'AUTH_FAILED', quarantine: null });
  const request = await stack.client.GET('/v1/activity/{eventId}/request', { params: { path: { eventId: id } } });
  expect(request.response.status).toBe(404);
  const res = await stack.client.POST('/v1/activity/{eventId}/rerun', { params: { path: { eventId: id } } });
  expect([res.response.status, res.error?.code]).toEqual([409, 'not_quarantined']);
});

it('a bulk re-run is counted first, then runs every quarantined request of the endpoint once; run again, nothing is delivered twice', async () => {
  const endpointId = await filteredEndpoint();
  const bodies = [1, 2, 3].map((n) => `{"state":"open","batch":${n}}`);
  for (const b of bodies) expect((await post(endpointId, b, { authorization: `Bearer ${TOKEN}` })).status).toBe(400);
  // refused before authentication: in the window, never counted
  expect((await post(endpointId, bodies[0]!, { authorization: 'Bearer wrong-token-0000000000' })).status).toBe(401);

  const preview = await eventually(
    async () => {
      const p = await must(stack.client.POST('/v1/reruns/preview', { body: { endpoint_id: endpointId } }));
      return p.requests === 3 ? p : undefined;
    },
    15000,
    'the three kept requests counted',
  );
  expect(preview).toMatchObject({ complete: true, max_requests: 100 });

  await filterBy(endpointId, 'batch');

  // every kept request in the log before the run (it travels apart from its row)
  const listed = await must(
    stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpointId, status: 'errors' } } }),
  );
  const kept = listed.data.filter((r) => r.outcome === 'REQUEST_BODY_FILTER_FAILED').map((r) => r.id);
  expect(kept).toHaveLength(3);
  for (const eventId of kept)
    await eventually(
      async () =>
        (await stack.client.GET('/v1/activity/{eventId}/request', { params: { path: { eventId } } })).response
          .status === 200,
      10000,
      'the kept request stored',
    );
  const run = await must(stack.client.POST('/v1/reruns', { body: { endpoint_id: endpointId } }));
  expect(run).toMatchObject({ requests: 3, accepted: 3, replayed: 0, refused: 0 });
  const again = await must(stack.client.POST('/v1/reruns', { body: { endpoint_id: endpointId } }));
  expect(again).toMatchObject({ requests: 3, accepted: 0, replayed: 3 });

  for (const r of run.results) await rowWhen(r.new_event_id!, (row) => row.status === 'completed', 'delivered');
  for (const b of bodies) expect(receiver.requests.filter((q) => q.body.toString() === b)).toHaveLength(1);
});
