import { must } from '@relay/client';
import { eventually, infra } from '../support/infra';
import { TcpProxy } from '../support/tcp-proxy';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Broker outage seen by a sender: the gateway's only path to RabbitMQ runs through a proxy
 * the test cuts and restores; the activity-writer keeps its own direct connection, so the
 * spooled rows can be seen arriving once the gateway drains them.
 */
let stack: Stack;
let proxy: TcpProxy;
let gateway: RunningService;
let endpointId: string;

const post = (): Promise<Response> =>
  fetch(`${gateway.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"n":1}',
  });

beforeAll(async () => {
  const broker = new URL(infra.rabbitmqUrl);
  proxy = new TcpProxy(broker.hostname, Number(broker.port || 5672));
  await proxy.start();
  // private: its gateway reaches RabbitMQ through a proxy the test cuts
  stack = await startStack('outage', { only: ['management-api', 'activity-writer'] });
  const viaProxy = new URL(infra.rabbitmqUrl);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  gateway = await startService('ingest-gateway', {
    ...stack.env,
    RABBITMQ_URL: viaProxy.toString(),
    SPOOL_DRAIN_INTERVAL_MS: '200',
  });
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'outage' } }))).id;
  // no deliverer runs here: accepted deliveries wait in the queue, which is all this test needs
  await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: { kind: 'webhook', name: 'r', config: { url: 'http://127.0.0.1:9/hook', enforce_https: false } },
    }),
  );
});

afterAll(async () => {
  await gateway?.stop();
  await stack?.stop();
  await proxy?.stop();
});

describe('delivery queue unavailable (spec Errors: 503 delivery_queue_unavailable, Retry-After 5)', () => {
  it('accepts while the broker is reachable', async () => {
    expect((await post()).status).toBe(202);
  });

  it('answers 503 delivery_queue_unavailable with Retry-After: 5 within 2 s when the broker connection is cut, and spools the DELIVERY_QUEUE_UNAVAILABLE row', async () => {
    await proxy.cut();
    const started = Date.now();
    const res = await post();
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toMatchObject({ code: 'delivery_queue_unavailable' });
    expect(elapsed).toBeLessThan(2000);

    // the row is spooled right after the answer, not before it
    await eventually(
      async () => {
        const spooled = await stack.redis.lrange(`${stack.namespace}:activity-spool`, 0, -1);
        return spooled.map((r) => JSON.parse(r).outcome).includes('DELIVERY_QUEUE_UNAVAILABLE');
      },
      2000,
      'the DELIVERY_QUEUE_UNAVAILABLE row in the Redis spool',
    );
    const ready = await fetch(`${gateway.healthUrl}/readyz`);
    expect(ready.status).toBe(503);
  });

  it('answers 503 within 2 s when the broker stops answering (black-holed connection)', async () => {
    await proxy.restore();
    await eventually(async () => (await post()).status === 202, 20000, 'the gateway to reconnect');
    proxy.blackhole();
    const started = Date.now();
    const res = await post();
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(Date.now() - started).toBeLessThan(2000);
    await proxy.cut();
  });

  it('accepts again after the broker returns, without restarting the gateway, and the spooled rows reach the activity log', async () => {
    await proxy.restore();
    const accepted = await eventually(
      async () => {
        const res = await post();
        return res.status === 202 ? res : undefined;
      },
      20000,
      'a 202 after the broker returned',
    );
    expect(await accepted.json()).toEqual({ message: 'Payload received' });
    expect(gateway.process.exitCode).toBeNull();

    await eventually(
      async () => (await stack.redis.llen(`${stack.namespace}:activity-spool`)) === 0,
      15000,
      'the spool to drain',
    );
    const rows = await eventually(
      async () => {
        const listed = await must(
          stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpointId, limit: 200 } } }),
        );
        const n = listed.data.filter((r) => r.outcome === 'DELIVERY_QUEUE_UNAVAILABLE').length;
        return n >= 2 ? n : undefined;
      },
      15000,
      'DELIVERY_QUEUE_UNAVAILABLE rows in MongoDB',
    );
    expect(rows).toBeGreaterThanOrEqual(2);
  });
});
