import { randomUUID } from 'node:crypto';
import { must } from '@relay/client';
import mqtt from 'mqtt';
import type { IPublishPacket, MqttClient } from 'mqtt';
import { activityRowWhen } from '../support/api-client';
import { eventually } from '../support/infra';
import {
  MOSQUITTO_MAX_PACKET_BYTES,
  MOSQUITTO_READER,
  MOSQUITTO_USER,
  startPrivateMosquitto,
} from '../support/private-mosquitto';
import type { PrivateMosquitto } from '../support/private-mosquitto';
import {
  addQueueTarget,
  flagOf,
  removeTarget,
  retryingWith,
  RIDES_OUT_AN_OUTAGE,
  sendJson,
} from '../support/queue-targets';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';
import { startTogether } from '../support/start-together';

/*
 * MQTT targets (docs/targets-queues.md "MQTT"), every service its own process on the worker's
 * shared stack, which runs no outputs deliverer: this file starts one on the stack's environment
 * for its own run. There is no shared MQTT broker: the file starts one Mosquitto of its own
 * (test/support/private-mosquitto.ts) and stops it in afterAll; the outage test stops and
 * restarts it once. Consumers are MQTT 5 clients with persistent sessions (clean start off) and
 * QoS 1 subscriptions under a topic of each test's own (`e2e/<uuid>/#`).
 */

let stack: Stack;
let outputs: RunningService;
let broker: PrivateMosquitto;
let endpointId: string;

beforeAll(async () => {
  [stack, broker] = await startTogether(
    [startStack('mqtt'), (s) => s.stop()],
    [startPrivateMosquitto('mqtt'), (b) => b.close()],
  );
  outputs = await startService('outputs-deliverer', stack.env);
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'to mqtt' } }))).id;
});

afterAll(async () => {
  await outputs?.stop();
  await broker?.close();
  await stack?.stop();
});

interface Consumer {
  clientId: string;
  got: IPublishPacket[];
  waitFor(n: number, timeoutMs?: number): Promise<IPublishPacket[]>;
  end(): Promise<void>;
}

/** an MQTT 5 consumer whose session outlives its connection; `subscribe` only the first time */
async function consumer(prefix: string, clientId = `e2e-${randomUUID()}`, subscribe = true): Promise<Consumer> {
  const client: MqttClient = mqtt.connect(broker.urlAs(), {
    protocolVersion: 5,
    clientId,
    clean: false,
    properties: { sessionExpiryInterval: 3600 },
    reconnectPeriod: 0,
  });
  // a session's held messages may come in the same read as the CONNACK: listen before it
  const got: IPublishPacket[] = [];
  client.on('message', (_topic, _payload, packet) => got.push(packet));
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  // a broker stopped under the consumer ends its connection; that is the test's doing
  client.on('error', () => undefined);
  if (subscribe) await client.subscribeAsync(`${prefix}/#`, { qos: 1 });
  return {
    clientId,
    got,
    waitFor: (n, timeoutMs = 30_000) =>
      eventually(async () => (got.length >= n ? got : undefined), timeoutMs, `${n} messages under ${prefix}`),
    end: () => client.endAsync(true),
  };
}

const ids = (p: IPublishPacket): Record<string, unknown> => p.properties?.userProperties ?? {};

describe('MQTT target, end to end', () => {
  it('MQTT 5: an event becomes one QoS 1 message on the rendered topic, its body, content type and ids as user properties', async () => {
    const prefix = `e2e/${randomUUID()}`;
    const c = await consumer(prefix);
    const targetId = await addQueueTarget(stack, endpointId, 'mqtt', {
      url: broker.urlAs(),
      topic: `${prefix}/orders/{{type}}`,
    });
    try {
      await sendJson(stack, endpointId, { type: 'paid', order: { id: 42 } });
      const [m] = await c.waitFor(1);
      expect(m!.topic).toBe(`${prefix}/orders/paid`);
      expect(m!.payload.toString()).toBe('{"type":"paid","order":{"id":42}}');
      expect(m!.qos).toBe(1);
      expect(m!.retain).toBe(false);
      expect(m!.properties).toMatchObject({
        contentType: 'application/json',
        userProperties: {
          'relay-delivery-id': expect.stringMatching(/^dlv_/),
          'relay-event-id': expect.stringMatching(/^evt_/),
          'relay-endpoint-id': endpointId,
        },
      });
      const eventId = ids(m!)['relay-event-id'] as string;
      const row = await activityRowWhen(stack.client, eventId, (r) => r.status === 'completed', 'delivered');
      expect(row.deliveries).toEqual([
        expect.objectContaining({ delivery_id: ids(m!)['relay-delivery-id'], target_id: targetId }),
      ]);
      expect(row.deliveries[0]!.attempts.map((a) => [a.state, a.status_code])).toEqual([['delivered', null]]);
    } finally {
      await removeTarget(stack, endpointId, targetId);
      await c.end();
    }
  });

  it('MQTT 3.1.1: the body alone, at QoS 1 (a 3.1.1 PUBLISH has no properties)', async () => {
    const prefix = `e2e/${randomUUID()}`;
    const c = await consumer(prefix);
    const targetId = await addQueueTarget(stack, endpointId, 'mqtt', {
      url: broker.urlAs(),
      topic: `${prefix}/v4`,
      protocol_version: 4,
    });
    try {
      await sendJson(stack, endpointId, { v: 4 });
      const [m] = await c.waitFor(1);
      expect([m!.topic, m!.payload.toString(), m!.qos]).toEqual([`${prefix}/v4`, '{"v":4}', 1]);
      expect(m!.properties?.userProperties).toBeUndefined();
    } finally {
      await removeTarget(stack, endpointId, targetId);
      await c.end();
    }
  });

  it.each([
    {
      what: 'a wrong password (Mosquitto answers CONNACK 0x87)',
      user: MOSQUITTO_USER.name,
      password: 'wrong-Pa55word',
      reason: 'the broker refused the user (CONNACK 0x87, not authorized)',
    },
    {
      what: 'a user without publish rights (PUBACK 0x87)',
      user: MOSQUITTO_READER.name,
      password: MOSQUITTO_READER.password,
      reason: 'the broker refused the publish (PUBACK 0x87, not authorized)',
    },
  ])('$what flags the target with the reason; the password is in no response', async ({ user, password, reason }) => {
    const prefix = `e2e/${randomUUID()}`;
    const c = await consumer(prefix);
    const targetId = await addQueueTarget(stack, endpointId, 'mqtt', {
      url: broker.urlAs(user, password),
      topic: `${prefix}/x`,
    });
    try {
      await sendJson(stack, endpointId, { n: 1 });
      const flagged = await flagOf(stack, endpointId, targetId);
      expect(flagged.reason).toContain(reason);
      expect(c.got).toHaveLength(0);
      const list = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }),
      );
      expect(JSON.stringify(list)).not.toContain(password);
    } finally {
      await removeTarget(stack, endpointId, targetId);
      await c.end();
    }
  });
});

describe('a payload the broker refuses', () => {
  it('a message over the broker’s maximum packet size (DISCONNECT 0x95) fails that delivery; the target is not flagged and the next one arrives', async () => {
    const prefix = `e2e/${randomUUID()}`;
    const c = await consumer(prefix);
    const big = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'mqtt big' } }))).id;
    const targetId = await addQueueTarget(stack, big, 'mqtt', { url: broker.urlAs(), topic: `${prefix}/big` });
    try {
      await sendJson(stack, big, { pad: 'x'.repeat(MOSQUITTO_MAX_PACKET_BYTES) });
      await eventually(
        async () => {
          const { data } = await stack.client.GET('/v1/activity', {
            params: {
              query: {
                endpoint_id: big,
                status: 'errors',
                error: 'the message is larger than the broker accepts (0x95, packet too large)',
              },
            },
          });
          return (data?.data ?? []).length === 1 ? true : undefined;
        },
        20_000,
        'the large delivery failed',
      );
      await sendJson(stack, big, { small: true });
      const [m] = await c.waitFor(1);
      expect(JSON.parse(m!.payload.toString())).toEqual({ small: true });
      const target = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
          params: { path: { endpointId: big, targetId } },
        }),
      );
      expect(target.flagged).toBeNull();
    } finally {
      await removeTarget(stack, big, targetId);
      await c.end();
    }
  });
});

describe('the destination broker stopped mid-run and restarted', () => {
  it('a persistent session keeps what was acknowledged before the restart; deliveries sent while it is down are retried and arrive, none lost', async () => {
    const prefix = `e2e/${randomUUID()}`;
    const first = await consumer(prefix);
    const outage = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'mqtt outage' } }))).id;
    const targetId = await addQueueTarget(
      stack,
      outage,
      'mqtt',
      { url: broker.urlAs(), topic: `${prefix}/o` },
      RIDES_OUT_AN_OUTAGE,
    );
    try {
      for (let i = 0; i < 2; i++) await sendJson(stack, outage, { before: i });
      await first.waitFor(2);
      await first.end();
      // acknowledged by the broker and held for the offline session, then written out on SIGTERM
      await sendJson(stack, outage, { held: 0 });
      await eventually(
        async () => {
          const { data } = await stack.client.GET('/v1/activity', {
            params: { query: { endpoint_id: outage, status: 'completed' } },
          });
          return (data?.data ?? []).length === 3 ? true : undefined;
        },
        20_000,
        'the held message acknowledged',
      );

      await broker.stop('SIGTERM');
      for (let i = 0; i < 2; i++) await sendJson(stack, outage, { during: i });
      await retryingWith(stack, outage, 'broker unavailable (ECONNREFUSED)', 2);
      await broker.start(20_000);

      const after = await consumer(prefix, first.clientId, false);
      try {
        await after.waitFor(3, 60_000);
        expect(after.got.map((m) => JSON.parse(m.payload.toString()))).toEqual(
          expect.arrayContaining([{ held: 0 }, { during: 0 }, { during: 1 }]),
        );
        const delivered = new Set([...first.got, ...after.got].map((m) => ids(m)['relay-delivery-id']));
        expect(delivered.size).toBe(5);
      } finally {
        await after.end();
      }
    } finally {
      await removeTarget(stack, outage, targetId);
    }
  });
});
