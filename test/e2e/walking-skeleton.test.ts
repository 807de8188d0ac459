import { must } from '@relay/client';
import { collectionsOf } from '../support/activity-log-internals';
import { eventually } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * The walking skeleton: one request travels the whole path — management API → gateway →
 * RabbitMQ → webhook-deliverer → receiver, and activity → activity-writer → MongoDB — with
 * every service its own process on the real servers.
 */
let stack: Stack;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startStack('skeleton');
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

describe('walking skeleton (every service a process, real RabbitMQ, Redis and FerretDB)', () => {
  it('relays a JSON POST to a webhook target byte for byte and logs an ACCEPTED row', async () => {
    const endpoint = await must(stack.client.POST('/v1/endpoints', { body: { name: 'orders' } }));
    await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId: endpoint.id } },
        body: { kind: 'webhook', name: 'receiver', config: { url: receiver.url('/hook'), enforce_https: false } },
      }),
    );

    const body = '{"order":42,  "note":"spaces and unicode ✓ kept"}';
    const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpoint.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-trace': 'abc' },
      body,
    });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('{"message":"Payload received"}');

    const [delivered] = await receiver.waitForRequests(1, 15000);
    expect(delivered!.method).toBe('POST');
    expect(delivered!.body.toString('utf8')).toBe(body);
    expect(delivered!.headers['content-type']).toBe('application/json');
    expect(delivered!.headers['x-relay-attempt']).toBe('1');
    const eventId = delivered!.headers['x-relay-event-id'] as string;
    expect(eventId).toMatch(/^evt_/);

    const row = await eventually(
      async () => {
        const doc = await collectionsOf(stack.store).row(eventId);
        return doc?.status === 'completed' ? doc : undefined;
      },
      15000,
      'a completed activity row',
    );
    expect(row).toMatchObject({
      outcome: 'ACCEPTED',
      method: 'POST',
      endpoint_id: endpoint.id,
      account_id: stack.accountId,
      target_count: 1,
    });
    expect(row.source_ip).toBe('127.0.0.1');

    // a flush writes rows, then the index the list reads: wait for the list too
    const listed = await eventually(
      async () => {
        const page = await must(
          stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpoint.id, status: 'completed' } } }),
        );
        return page.data.length > 0 ? page : undefined;
      },
      15000,
      'the completed row in the list',
    );
    expect(listed.data.map((r) => r.id)).toEqual([eventId]);
    expect(listed.data[0]).toMatchObject({ status: 'completed', outcome: 'ACCEPTED', source_ip: '127.0.0.1' });
    const opened = await must(stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } }));
    expect(opened.deliveries[0]).toMatchObject({
      state: 'delivered',
      attempts: [{ attempt: 1, state: 'delivered', status_code: 200 }],
    });
  });

  it('answers 404 with no activity row for an unknown or disabled endpoint', async () => {
    const endpoint = await must(stack.client.POST('/v1/endpoints', { body: { name: 'off' } }));
    const patched = await must(
      stack.client.PATCH('/v1/endpoints/{endpointId}', {
        params: { path: { endpointId: endpoint.id } },
        body: { enabled: false },
      }),
    );
    expect(patched.enabled).toBe(false);
    for (const id of [endpoint.id, 'ep_doesnotexist']) {
      const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(404);
    }
    // give the writer time to store anything that was (wrongly) published
    await new Promise((r) => setTimeout(r, 1000));
    expect(
      (await must(stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpoint.id } } }))).data,
    ).toEqual([]);
    expect(
      (await must(stack.client.GET('/v1/activity'))).data.filter((r) =>
        [endpoint.id, 'ep_doesnotexist'].includes(r.endpoint_id),
      ),
    ).toEqual([]);
  });
});
