import { randomBytes } from 'node:crypto';
import { must } from '@relay/client';
import type { ActivityRow, EndpointCreate, operations } from '@relay/client';
import { createInternalSigner } from '@relay/secrets';
import { eventually } from '../support/infra';
import { activityRowWhen } from '../support/api-client';
import { TestReceiver } from '../support/receiver';
import type { CapturedRequest } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Test requests, resend and Idempotency-Key, seen from outside: every
 * service its own process on the real servers, the management API running test requests
 * through the gateway's pipeline, receivers on loopback, rows read through the activity API.
 */
let stack: Stack;
let receiver: TestReceiver;
let second: TestReceiver;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  second = await TestReceiver.start();
  stack = await startStack('replay');
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  await second?.close();
});

async function endpointWith(
  body: Omit<EndpointCreate, 'name'>,
  receivers: TestReceiver[],
): Promise<{ endpointId: string; targetIds: string[] }> {
  const created = await must(stack.client.POST('/v1/endpoints', { body: { name: 'replay', ...body } }));
  const targetIds: string[] = [];
  for (const r of receivers) {
    const config = { url: r.url(), enforce_https: false, forward_headers: { mode: 'all' } };
    const t = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId: created.id } },
        body: { kind: 'webhook', name: 'r', config },
      }),
    );
    targetIds.push(t.id);
  }
  return { endpointId: created.id, targetIds };
}

type ActivityQuery = NonNullable<operations['listActivity']['parameters']['query']>;
const listed = async (query: ActivityQuery) =>
  (await must(stack.client.GET('/v1/activity', { params: { query } }))).data;

const gatewayUrl = (endpointId: string) => `${stack.services['ingest-gateway']!.url}/relay/${endpointId}`;

const rowWhen = (eventId: string, ok: (row: ActivityRow) => boolean, what: string) =>
  activityRowWhen(stack.client, eventId, ok, what);

/**
 * POST …/resend as a client following the documented answer would: a 409 payload_not_stored
 * means "not yet" while the payload, published apart from the row, is on its way to the log.
 */
const resend = (eventId: string, body?: { target_id?: string }) =>
  eventually(
    async () => {
      const res = await stack.client.POST('/v1/activity/{eventId}/resend', {
        params: { path: { eventId } },
        ...(body === undefined ? {} : { body }),
      });
      return res.error?.code === 'payload_not_stored' ? undefined : res;
    },
    10000,
    'the payload to be stored',
  );

const deliveriesOf = (r: TestReceiver, eventId: string): CapturedRequest[] =>
  r.requests.filter((q) => q.headers['x-relay-event-id'] === eventId);

describe('test requests: POST /v1/endpoints/:id/test', () => {
  it('runs through the real pipeline, reaches the receiver, and leaves a row in the Test group only (spec: All / Completed / Pending / Errors / Test)', async () => {
    // a sender would need a bearer token and an allowed address; the owner needs neither
    const { endpointId } = await endpointWith(
      {
        inbound_auth: { type: 'BEARER', tokens: ['sender-token-0123456789'] },
        ip_access: { allow: ['192.0.2.0/24'], deny: [] },
      },
      [receiver],
    );
    const res = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/test', {
        params: { path: { endpointId } },
        body: { body: { order: 7 }, headers: { 'X-Trace': 'abc' } },
      }),
    );
    expect(res).toMatchObject({ outcome: 'ACCEPTED', target_count: 1, test: true });
    const eventId = res.event_id;

    const [delivered] = await eventually(
      async () => deliveriesOf(receiver, eventId).length > 0 && deliveriesOf(receiver, eventId),
      15000,
      'the test delivery',
    );
    expect(JSON.parse(delivered!.body.toString())).toEqual({ order: 7 });
    expect(delivered!.headers['x-trace']).toBe('abc');

    const row = await rowWhen(eventId, (r) => r.status === 'completed', 'the test row, completed');
    expect(row).toMatchObject({ outcome: 'ACCEPTED', test: true, endpoint_id: endpointId });

    const list = async (status: ActivityQuery['status']) =>
      (await listed({ endpoint_id: endpointId, status })).map((r) => r.id);
    // the row is written a moment before its index pages
    await eventually(async () => (await list('test')).length > 0, 10000, 'the row listed');
    expect(await list('test')).toEqual([eventId]);
    expect(await list('all')).toEqual([eventId]);
    expect(await list('completed')).toEqual([]);
  });

  it('applies the same payload rules as the gateway: a refused test is 422 with what a sender would get, and its Test row', async () => {
    const { endpointId } = await endpointWith({ field_rules: [{ path: 'order.id', required: true }] }, [receiver]);
    const res = await stack.client.POST('/v1/endpoints/{endpointId}/test', {
      params: { path: { endpointId } },
      body: { body: { order: {} } },
    });
    expect(res.response.status).toBe(422);
    expect(res.error).toMatchObject({
      code: 'test_request_rejected',
      outcome: 'FIELD_VALIDATION_FAILED',
      ingest_status: 400,
      ingest_code: 'field_validation_failed',
    });
    const refusedId = res.error && 'event_id' in res.error ? res.error.event_id : null;
    expect(refusedId).toEqual(expect.any(String));
    const row = await rowWhen(refusedId!, () => true, 'the refused test row');
    expect(row).toMatchObject({ outcome: 'FIELD_VALIDATION_FAILED', test: true });
    expect(await listed({ endpoint_id: endpointId, status: 'errors' })).toEqual([]);
  });

  it('sends a sample of the endpoint format when the body names no payload', async () => {
    const { endpointId } = await endpointWith({ payload_format: 'form' }, [receiver]);
    const { event_id: eventId } = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/test', { params: { path: { endpointId } } }),
    );
    const [delivered] = await eventually(
      async () => deliveriesOf(receiver, eventId).length > 0 && deliveriesOf(receiver, eventId),
      15000,
      'the sample delivery',
    );
    expect(JSON.parse(delivered!.body.toString())).toMatchObject({ test: 'true', message: 'Test request from Relay' });
  });

  it('refuses a malformed test body with validation_failed, and an unknown endpoint with 404', async () => {
    const { endpointId } = await endpointWith({}, []);
    // raw: a test body the document refuses (an unknown field, a method and header it does not allow)
    const bad = await stack.api(`/v1/endpoints/${endpointId}/test`, {
      method: 'POST',
      body: { method: 'TRACE', headers: { 'Content-Length': '1' }, extra: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'extra',
      'headers.Content-Length',
      'method',
    ]);
    expect(
      (
        await stack.client.POST('/v1/endpoints/{endpointId}/test', {
          params: { path: { endpointId: 'ep_00000000000000000000' } },
        })
      ).response.status,
    ).toBe(404);
  });
});

describe("the gateway's internal test-request route", () => {
  it('runs nothing without a signature made from SECRETS_KEYS, and is not on the public ingest port', async () => {
    const { endpointId } = await endpointWith({}, [receiver]);
    const body = Buffer.from(
      JSON.stringify({
        endpoint_id: endpointId,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        query: '',
        body_base64: '',
        source_ip: '127.0.0.1',
      }),
    );
    const path = `/internal/v1/test-requests/${endpointId}`;
    const post = (base: string, signature?: string) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'x-relay-signature': signature } : {}) },
        body,
      });
    const health = stack.services['ingest-gateway']!.healthUrl;
    expect((await post(health)).status).toBe(401);
    expect(
      (await post(health, createInternalSigner(`k1:${randomBytes(32).toString('base64')}`, 'test-request').sign(body)))
        .status,
    ).toBe(401);
    expect(
      (
        await post(
          stack.services['ingest-gateway']!.url,
          createInternalSigner(stack.env.SECRETS_KEYS!, 'test-request').sign(body),
        )
      ).status,
    ).toBe(404);
    const signed = await post(health, createInternalSigner(stack.env.SECRETS_KEYS!, 'test-request').sign(body));
    expect(signed.status).toBe(200);
    expect(await signed.json()).toMatchObject({ accepted: false, code: 'malformed_payload' });
  });
});

describe('resend: POST /v1/activity/:eventId/resend', () => {
  it('delivers the stored payload again: same event id, a new delivery id, the receiver gets it twice, the row shows both deliveries', async () => {
    const { endpointId, targetIds } = await endpointWith({}, [receiver]);
    const sent = await fetch(`${gatewayUrl(endpointId)}?source=shop`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shop': 'north' },
      body: '{"order":42}',
    });
    expect(sent.status).toBe(202);
    const eventId = sent.headers.get('x-relay-event-id')!;
    expect(eventId).toMatch(/^evt_/);
    await rowWhen(eventId, (r) => r.status === 'completed', 'the first delivery on the row');

    const resentFrom = Date.now();
    const res = await resend(eventId);
    const resentBy = Date.now();
    expect(res.response.status).toBe(202);
    expect(res.data?.event_id).toBe(eventId);
    expect(res.data?.deliveries).toHaveLength(1);
    expect(res.data?.deliveries[0]!.target_id).toBe(targetIds[0]);

    const [first, again] = await eventually(
      async () => deliveriesOf(receiver, eventId).length >= 2 && deliveriesOf(receiver, eventId),
      15000,
      'the resent delivery',
    );
    expect(again!.headers['x-relay-delivery-id']).toBe(res.data?.deliveries[0]!.delivery_id);
    expect(again!.headers['x-relay-delivery-id']).not.toBe(first!.headers['x-relay-delivery-id']);
    expect(again!.headers['x-relay-attempt']).toBe('1');
    expect(again!.body.toString()).toBe(first!.body.toString());
    expect(again!.headers['x-shop']).toBe('north');
    expect(again!.url).toBe(first!.url);

    const row = await rowWhen(
      eventId,
      (r) => r.deliveries.length === 2 && r.deliveries.every((d: { state: string }) => d.state === 'delivered'),
      'both deliveries on the row',
    );
    expect(row.deliveries.map((d: { delivery_id: string }) => d.delivery_id)).toEqual([
      first!.headers['x-relay-delivery-id'],
      again!.headers['x-relay-delivery-id'],
    ]);
    expect(row.status).toBe('completed');
    // Each delivery starts on its own — the first at the receipt, the resent one at its resend
    expect(row.deliveries[0].started_at).toBe(row.received_at);
    expect(Date.parse(row.deliveries[1].started_at)).toBeGreaterThanOrEqual(resentFrom);
    expect(Date.parse(row.deliveries[1].started_at)).toBeLessThanOrEqual(resentBy);
  });

  it('to one target only, with target_id', async () => {
    const { endpointId, targetIds } = await endpointWith({}, [receiver, second]);
    const sent = await fetch(gatewayUrl(endpointId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"n":1}',
    });
    const eventId = sent.headers.get('x-relay-event-id')!;
    await rowWhen(eventId, (r) => r.status === 'completed', 'both first deliveries');
    const res = await resend(eventId, { target_id: targetIds[1] });
    expect(res.response.status).toBe(202);
    await eventually(
      async () => deliveriesOf(second, eventId).length === 2,
      15000,
      'the second receiver to get it twice',
    );
    await rowWhen(eventId, (r) => r.deliveries.length === 3, 'three deliveries on the row');
    expect(deliveriesOf(receiver, eventId)).toHaveLength(1);
  });

  it('refuses what cannot be delivered again: a rejected request (409), an unknown event (404), a target of another endpoint (404)', async () => {
    const { endpointId } = await endpointWith(
      { inbound_auth: { type: 'BEARER', tokens: ['sender-token-0123456789'] } },
      [receiver],
    );
    const refused = await stack.client.POST('/v1/endpoints/{endpointId}/test', {
      params: { path: { endpointId } },
      body: { body: 'not json' },
    });
    const eventId = refused.error && 'event_id' in refused.error ? refused.error.event_id : null;
    if (!eventId) throw new Error(`the refused test request named no event: ${JSON.stringify(refused.error)}`);
    await rowWhen(eventId, () => true, 'the refused row');
    const resendOf = (id: string, body?: { target_id: string }) =>
      stack.client.POST('/v1/activity/{eventId}/resend', {
        params: { path: { eventId: id } },
        ...(body ? { body } : {}),
      });
    expect((await resendOf(eventId)).error?.code).toBe('not_resendable');
    expect((await resendOf('evt_01m83e0000aaaaaaaaaaaaaaaa')).response.status).toBe(404);
    const other = await endpointWith({}, [second]);
    const sent = await fetch(gatewayUrl(other.endpointId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const otherEvent = sent.headers.get('x-relay-event-id')!;
    await rowWhen(otherEvent, (r) => r.status === 'completed', 'the other row');
    const wrongTarget = await resendOf(otherEvent, { target_id: 'tg_00000000000000000000' });
    expect([wrongTarget.response.status, wrongTarget.error?.code]).toEqual([404, 'not_found']);
  });
});

describe('Idempotency-Key at the gateway: the event key a sender supplies for resending', () => {
  it('a duplicate is answered 202 with the first event id and delivers nothing new; another key is a new event', async () => {
    const { endpointId } = await endpointWith({}, [second]);
    const post = (key: string) =>
      fetch(gatewayUrl(endpointId), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: '{"pay":1}',
      });
    const first = await post('order-1001');
    const dup = await post('order-1001');
    const other = await post('order-1002');
    expect([first.status, dup.status, other.status]).toEqual([202, 202, 202]);
    const eventId = first.headers.get('x-relay-event-id')!;
    expect(dup.headers.get('x-relay-event-id')).toBe(eventId);
    expect(dup.headers.get('idempotent-replayed')).toBe('true');
    expect(await dup.json()).toEqual({ message: 'Payload received' });
    expect(other.headers.get('x-relay-event-id')).not.toBe(eventId);

    await eventually(
      async () => deliveriesOf(second, other.headers.get('x-relay-event-id')!).length === 1,
      15000,
      'the other key delivered',
    );
    expect(deliveriesOf(second, eventId)).toHaveLength(1);
    const rows = await eventually(
      async () => {
        const data = await listed({ endpoint_id: endpointId });
        return data.length >= 2 && data;
      },
      15000,
      'the rows of the endpoint',
    );
    expect(rows.map((r) => r.id).sort()).toEqual([eventId, other.headers.get('x-relay-event-id')].sort());
  });
});
