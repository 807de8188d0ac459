import { must } from '@relay/client';
import type { RelayClient } from '@relay/client';
import type { StoredPayloadV1 } from '@relay/contracts';
import { startManagement } from '../management/fixture';
import type { ManagementFixture } from '../management/fixture';
import { attempt, eventId, pipelineOn, request as requestRow } from '../../../libs/activity-log/conformance/fixtures';

/*
 * Item 1 through the management API: a row's request as the sender sent it — headers
 * with credentials redacted, query, the payload's bytes, size and text — and each delivery named
 * by its target's name. docs/management-api.md "Activity log".
 */
let fx: ManagementFixture;
let endpointId: string;
let targetId: string;
const ids: Record<string, string> = {};

const kept = (event: string, body: Buffer, headers: Record<string, string>): StoredPayloadV1 => ({
  event_id: event,
  account_id: fx.accountId,
  endpoint_id: endpointId,
  received_at: new Date().toISOString(),
  request: { method: 'POST', source_ip: '203.0.113.7', headers, query: 'source=shop&x=1' },
  payload: { content_type: 'application/json', body_base64: body.toString('base64') },
});

beforeAll(async () => {
  fx = await startManagement('activityrequest');
  endpointId = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'orders' } }))).id;
  const target = await must(
    fx.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: { kind: 'webhook', name: 'Fulfilment', config: { url: 'https://receiver.example/hook' } },
    }),
  );
  targetId = target.id;
  const own = { account_id: fx.accountId, endpoint_id: endpointId };
  const { pipeline, write } = pipelineOn(fx.store);
  ids.json = eventId('json');
  ids.binary = eventId('binary');
  ids.refused = eventId('refused');
  await Promise.all([
    write([
      requestRow(ids.json, { ...own, target_count: 1 }),
      attempt(ids.json, targetId, 1, 'delivered', own),
      requestRow(ids.binary, { ...own, target_count: 0 }),
      requestRow(ids.refused, { ...own, outcome: 'AUTH_FAILED', reason: 'invalid bearer token', target_count: 0 }),
    ]),
    pipeline.addPayloads([
      kept(ids.json, Buffer.from('{"order":42,"customer":"ann"}'), {
        'content-type': 'application/json',
        'x-shop': 'north',
        'x-shop-token': 's3cr3t',
        authorization: 'Bearer abc',
        cookie: 'a=b',
      }),
      kept(ids.binary, Buffer.from([0xff, 0xfe, 0x00, 0x01]), {}),
    ]),
  ]);
});
afterAll(() => fx?.close());

/** `GET /v1/activity/:eventId/request`: what the sender sent, as kept. */
const keptRequest = async (eventId: string, client: RelayClient = fx.client) =>
  must(client.GET('/v1/activity/{eventId}/request', { params: { path: { eventId } } }));

describe('the request of an activity row', () => {
  it('headers with credentials redacted, the query, and the payload as text, bytes and size', async () => {
    expect(await keptRequest(ids.json)).toEqual({
      event_id: ids.json,
      method: 'POST',
      source_ip: '203.0.113.7',
      query: 'source=shop&x=1',
      headers: {
        'content-type': 'application/json',
        'x-shop': 'north',
        'x-shop-token': '[redacted]',
        authorization: '[redacted]',
        cookie: '[redacted]',
      },
      content_type: 'application/json',
      size_bytes: 29,
      body_base64: Buffer.from('{"order":42,"customer":"ann"}').toString('base64'),
      body_text: '{"order":42,"customer":"ann"}',
    });
  });

  it('bytes that are not UTF-8 have no text view, only their exact bytes', async () => {
    expect(await keptRequest(ids.binary)).toMatchObject({
      size_bytes: 4,
      body_text: null,
      body_base64: Buffer.from([0xff, 0xfe, 0x00, 0x01]).toString('base64'),
    });
  });

  it('a refused request keeps none; another account cannot read one; an unknown event is not found', async () => {
    const kept = (client: RelayClient, id: string) =>
      client
        .GET('/v1/activity/{eventId}/request', { params: { path: { eventId: id } } })
        .then((r) => r.response.status);
    expect(await kept(fx.client, ids.refused!)).toBe(404);
    const other = await fx.newAccount();
    expect(await kept(fx.clientAs(other.apiKey), ids.json!)).toBe(404);
    expect(await kept(fx.client, eventId('nothing'))).toBe(404);
  });

  it('a viewer may read it', async () => {
    const viewer = await fx.keyWithRole('viewer');
    expect(await keptRequest(ids.json, fx.clientAs(viewer.secret))).toMatchObject({ event_id: ids.json });
  });

  it("names each delivery by its target's name, and by none once the target is deleted", async () => {
    const names = async () =>
      (await must(fx.client.GET('/v1/activity/{eventId}', { params: { path: { eventId: ids.json } } }))).deliveries.map(
        (d) => d.target_name,
      );
    expect(await names()).toEqual(['Fulfilment']);
    await must(
      fx.client.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}', { params: { path: { endpointId, targetId } } }),
    );
    expect(await names()).toEqual([null]);
  });
});
