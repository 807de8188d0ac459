import { must } from '@relay/client';
import type { ActivityRow, operations } from '@relay/client';
import { eventually } from '../support/infra';
import { activityRowWhen } from '../support/api-client';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * The stack with ACTIVITY_LOG_DRIVER=mongodb, as compose and Kubernetes run it: the writer
 * writes the log through the MongoDB driver and the management API lists, opens, searches and
 * resends through it. (The driver's own behaviour: libs/activity-log/conformance.)
 */
let stack: Stack;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  // private: the driver, and a short flush and hold
  const writer = { BATCH_MAX_WAIT_MS: '100', ACTIVITY_HOLD_MS: '500' };
  stack = await startStack('activity-log-driver', {
    overrides: {
      'activity-writer': { ACTIVITY_LOG_DRIVER: 'mongodb', ...writer },
      'management-api': { ACTIVITY_LOG_DRIVER: 'mongodb' },
    },
  });
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

type ActivityQuery = NonNullable<operations['listActivity']['parameters']['query']>;
const listed = async (query: ActivityQuery) =>
  (await must(stack.client.GET('/v1/activity', { params: { query } }))).data.map((r) => r.id);

const rowWhen = (eventId: string, ok: (row: ActivityRow) => boolean, what: string) =>
  activityRowWhen(stack.client, eventId, ok, what);

describe('the activity log on its MongoDB driver, through the services', () => {
  it('a delivered request is one row in the indexed collection, listed by its filters and found by its payload; a resend adds a delivery to it', async () => {
    const endpoint = await must(stack.client.POST('/v1/endpoints', { body: { name: 'driver' } }));
    await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId: endpoint.id } },
        body: { kind: 'webhook', name: 'r', config: { url: receiver.url(), enforce_https: false } },
      }),
    );
    const sent = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpoint.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"order":"driver-42"}',
    });
    expect(sent.status).toBe(202);
    const eventId = sent.headers.get('x-relay-event-id')!;
    await rowWhen(eventId, (r) => r.status === 'completed', 'the delivered row');

    const stored = await stack.store.connection.collection('activity_log_rows').findOne({ _id: eventId as never });
    expect(stored).toMatchObject({ endpoint_id: endpoint.id, group: 'completed' });
    expect(await stack.store.connection.db!.listCollections({ name: /^activity_rows_/ }).toArray()).toEqual([]);

    expect(await listed({ endpoint_id: endpoint.id })).toEqual([eventId]);
    expect(await listed({ endpoint_id: endpoint.id, status: 'completed' })).toEqual([eventId]);
    expect(await listed({ endpoint_id: endpoint.id, status: 'errors' })).toEqual([]);
    await eventually(
      async () => (await listed({ endpoint_id: endpoint.id, payload: 'driver-42' })).length === 1,
      10000,
      'the payload kept and searchable',
    );

    const resent = await must(stack.client.POST('/v1/activity/{eventId}/resend', { params: { path: { eventId } } }));
    expect(resent).toMatchObject({ event_id: eventId });
    await rowWhen(
      eventId,
      (r) => r.deliveries.length === 2 && r.deliveries.every((d) => d.state === 'delivered'),
      'the resend delivered, on the row',
    );
    expect(receiver.requests.filter((q) => q.headers['x-relay-event-id'] === eventId)).toHaveLength(2);
  });
});
