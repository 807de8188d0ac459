import { createHmac } from 'node:crypto';
import { must } from '@relay/client';
import type { EndpointCreate } from '@relay/client';
import { activityRowWhen } from '../support/api-client';
import { eventually } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/*
 * Payload contracts and drift (docs/contracts.md), seen from outside on the worker's shared
 * stack: a schema refusing a payload with its errors, mark mode, the validate dry run, and a
 * drift alert fired by a new payload shape of a GitHub-preset endpoint, once per shape.
 */
let stack: Stack;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startStack('contracts');
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

const ORDER_SCHEMA = JSON.stringify({
  type: 'object',
  required: ['id', 'amount'],
  properties: { id: { type: 'string', pattern: '^ord_' }, amount: { type: 'integer', minimum: 0 } },
});
const contracts = (mode: 'refuse' | 'mark') => ({
  event_type: { from: 'path' as const, path: 'type' },
  mode,
  schemas: [{ event_type: 'order.created', schema: ORDER_SCHEMA }],
});

const post = (endpointId: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

async function newEndpoint(body: EndpointCreate): Promise<string> {
  return (await must(stack.client.POST('/v1/endpoints', { body }))).id;
}

describe('payload contracts', () => {
  it('refuse: a failing payload is answered 400 contract_violation with its errors, its row kept in quarantine', async () => {
    const endpointId = await newEndpoint({ name: 'orders', contracts: contracts('refuse') });
    const res = await post(endpointId, '{"type":"order.created","id":"x_1","amount":-3}');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'contract_violation',
      message:
        'The payload does not match the endpoint\'s contract for event type "order.created" (schema "order.created"); see errors.',
      errors: [
        { path: '/id', message: 'does not match its pattern' },
        { path: '/amount', message: 'must be >= 0' },
      ],
    });
    const ok = await post(endpointId, '{"type":"order.created","id":"ord_1","amount":3}');
    expect(ok.status).toBe(202);
    const rows = await eventually(
      async () => {
        const { data } = await stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpointId } } });
        return data && data.data.length === 2 ? data.data : undefined;
      },
      15_000,
      'both rows',
    );
    expect(rows.map((r) => r.outcome).sort()).toEqual(['ACCEPTED', 'CONTRACT_VIOLATION']);
    const refused = rows.find((r) => r.outcome === 'CONTRACT_VIOLATION')!;
    expect(await activityRowWhen(stack.client, refused.id, () => true, 'the refused row')).toMatchObject({
      reason: 'schema order.created: /id does not match its pattern; /amount must be >= 0',
      quarantine: 'kept',
      contract_violation: null,
    });
  });

  it('mark: the failing payload is accepted and delivered, its row says what failed', async () => {
    const endpointId = await newEndpoint({ name: 'orders marked', contracts: contracts('mark') });
    await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId } },
        body: { kind: 'webhook', name: 'r', config: { url: receiver.url(), enforce_https: false } },
      }),
    );
    const body = '{"type":"order.created","id":"ord_2"}';
    const res = await post(endpointId, body);
    expect(res.status).toBe(202);
    const eventId = res.headers.get('x-relay-event-id')!;
    const row = await activityRowWhen(stack.client, eventId, (r) => r.status === 'completed', 'delivered');
    expect(row).toMatchObject({ outcome: 'ACCEPTED', contract_violation: 'schema order.created: /amount is required' });
    expect(receiver.requests.filter((q) => q.body.toString() === body)).toHaveLength(1);
  });

  it('validate: a dry run says which schema applied and what failed, with the saved contracts or a draft; nothing is recorded', async () => {
    const endpointId = await newEndpoint({ name: 'dry run', contracts: contracts('refuse') });
    const validate = (body: object) =>
      must(
        stack.client.POST('/v1/endpoints/{endpointId}/validate', {
          params: { path: { endpointId } },
          body: body as never,
        }),
      );
    expect(await validate({ body: { type: 'order.created', id: 'ord_1' } })).toEqual({
      valid: false,
      event_type: 'order.created',
      schema: 'order.created',
      errors: [{ path: '/amount', message: 'is required' }],
      truncated: false,
    });
    expect(await validate({ body: { type: 'refund' } })).toEqual({
      valid: true,
      event_type: 'refund',
      schema: null,
      errors: [],
      truncated: false,
    });
    const draft = {
      event_type: { from: 'header', header: 'X-Kind' },
      mode: 'refuse',
      schemas: [{ event_type: '*', schema: '{"required":["kind"]}' }],
    };
    expect(await validate({ headers: { 'X-Kind': 'ping' }, body: {}, contracts: draft })).toMatchObject({
      valid: false,
      event_type: 'ping',
      schema: '*',
      errors: [{ path: '/kind', message: 'is required' }],
    });
    const bad = await stack.client.POST('/v1/endpoints/{endpointId}/validate', {
      params: { path: { endpointId } },
      body: {
        body: {},
        contracts: { ...draft, schemas: [{ event_type: '*', schema: '{"pattern":"(a)\\\\1"}' }] },
      } as never,
    });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({
      code: 'validation_failed',
      errors: [
        { field: 'contracts.schemas[0].schema', message: expect.stringContaining('backreferences are not supported') },
      ],
    });
    const { data } = await stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpointId } } });
    expect(data?.data).toEqual([]);
  });
});

describe('payload drift', () => {
  const SECRET = 'github-webhook-secret-0123';
  const push = (endpointId: string, payload: object) => {
    const text = JSON.stringify(payload);
    return post(endpointId, text, {
      'x-github-event': 'push',
      'x-github-delivery': `d-${Math.random()}`,
      'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(text).digest('hex')}`,
    });
  };
  const driftAlerts = async () =>
    ((await must(stack.client.GET('/v1/alerts'))).data ?? []).filter((a) => a.kind === 'payload_drift');

  it('a new payload shape fires one alert naming the fields; the same shape again fires nothing', async () => {
    const endpointId = await newEndpoint({
      name: 'github',
      inbound_auth: { type: 'HMAC', preset: 'github', secrets: [SECRET] },
      contracts: {
        event_type: { from: 'header' as const, header: 'X-GitHub-Event' },
        mode: 'mark' as const,
        schemas: [{ event_type: '*', schema: 'true' }],
      },
    });
    const hook = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId } },
        body: { kind: 'webhook', name: 'alerts', config: { url: receiver.url(), enforce_https: false } },
      }),
    );
    await must(
      stack.client.POST('/v1/alert-rules', {
        body: {
          name: 'github drift',
          target_ids: [hook.id],
          conditions: [{ kind: 'payload_drift', endpoint_id: endpointId }],
        },
      }),
    );

    // the baseline: learned silently
    expect((await push(endpointId, { ref: 'main', commits: [{ id: 'a' }] })).status).toBe(202);
    // a field added, one removed (commits[].id), one retyped
    expect((await push(endpointId, { ref: 1, commits: [{}], forced: false })).status).toBe(202);
    const [first] = await eventually(
      async () => {
        const alerts = await driftAlerts();
        return alerts.length === 1 ? alerts : undefined;
      },
      30_000,
      'the drift alert',
    );
    expect(first!.summary).toContain('added: $.forced; removed: $.commits[].id; retyped: $.ref: string → integer.');
    expect(first).toMatchObject({ endpoint_id: endpointId, rule_name: 'github drift', test: false });
    await eventually(
      async () =>
        receiver.requests.some(
          (q) => (JSON.parse(q.body.toString()) as { alert?: { kind?: string } }).alert?.kind === 'payload_drift',
        ),
      30_000,
      'the alert delivered to the rule’s target',
    );

    // the same shape again (and the baseline's), then one more new shape as a fence
    expect((await push(endpointId, { ref: 2, commits: [{}], forced: true })).status).toBe(202);
    expect((await push(endpointId, { ref: 'dev', commits: [{ id: 'b' }] })).status).toBe(202);
    expect((await push(endpointId, { ref: 'main', commits: [] })).status).toBe(202);
    const alerts = await eventually(
      async () => {
        const got = await driftAlerts();
        return got.length >= 2 ? got : undefined;
      },
      30_000,
      'the fence’s drift alert',
    );
    expect(alerts.map((a) => a.summary.replace(/\(event evt_\w+\)/, '(event …)'))).toEqual([
      `Endpoint “github” (${endpointId}): event type “push” arrived with a new payload shape (event …) — added: none; removed: $.commits[], $.commits[].id; retyped: none.`,
      `Endpoint “github” (${endpointId}): event type “push” arrived with a new payload shape (event …) — added: $.forced; removed: $.commits[].id; retyped: $.ref: string → integer.`,
    ]);
  });
});
