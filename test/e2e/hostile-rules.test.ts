import { must } from '@relay/client';
import { compilePattern, MAX_BODY_FILTERS, MAX_FIELD_RULES, MAX_ROUTING_RULES } from '@relay/endpoints';
import { eventually } from '../support/infra';
import { bootstrapAccount } from '../support/services';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * The bound on what one request's rules may cost (docs/security.md "Rule cost") on the real
 * gateway, with its default settings: one account fills every rule slot with the worst pattern
 * the save-time check admits (RE2 program size just under 10,000, which re2js matches by NFA
 * simulation at ~0.1 ms a character) and sends bodies at the plan's payload limit, while a
 * second account sends ordinary requests. Asserted: outcomes only — every hostile request gets
 * the documented refusal naming the rule the deadline stopped, and every request of the second
 * account is accepted and delivered. How long the second account waited is bench/hostile-rules.js's.
 */
const WORST = '(?:a|b|aa|bb|ab|ba){767}c';
/** the default plan's payload limit (the shared stack's accounts have it) */
const PAYLOAD_LIMIT = 262_144;

let stack: Stack;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startStack('hostile-rules');
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

/** a JSON object of exactly `bytes` bytes: field f0 is a/b text ending in c, what WORST is slowest on */
function abBody(bytes: number): string {
  const frame = JSON.stringify({ f0: '' }).length;
  let text = '';
  while (text.length < bytes - frame - 1) text += Math.random() < 0.5 ? 'a' : 'b';
  return JSON.stringify({ f0: `${text}c` });
}

interface Answer {
  status: number;
  code: string | null;
  message: string | null;
}

async function post(endpointId: string, body: string): Promise<Answer> {
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const answer = (await res.json()) as { code?: string; message?: string };
  return { status: res.status, code: answer.code ?? null, message: answer.message ?? null };
}

const deadline = (rule: string): Answer => ({
  status: 413,
  code: 'rules_deadline_exceeded',
  message: expect.stringContaining(`(stopped in ${rule})`),
});

const everyField = Array.from({ length: MAX_FIELD_RULES }, (_, i) => ({ path: `f${i}`, pattern: WORST }));

/** a second account's endpoint delivering to the receiver's `path` */
async function quietEndpoint(path: string): Promise<{ id: string }> {
  const second = await bootstrapAccount(stack.env);
  const quiet = await must(
    stack.clientAs(second.api_key).POST('/v1/endpoints', { body: { name: 'quiet', rate_limit_per_minute: 10_000 } }),
  );
  await must(
    stack.clientAs(second.api_key).POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId: quiet.id } },
      body: { kind: 'webhook', name: 'quiet', config: { url: receiver.url(path), enforce_https: false } },
    }),
  );
  return quiet;
}

/** Sends `{}` to the quiet endpoint one request after another while `hostile` runs; their answers. */
async function quietWhile(quietId: string, hostile: () => Promise<void>): Promise<Answer[]> {
  let hostileDone = false;
  const answers: Answer[] = [];
  const quietLoop = (async () => {
    for (let i = 0; i < 300 && !hostileDone; i++) answers.push(await post(quietId, '{}'));
  })();
  await hostile();
  hostileDone = true;
  await quietLoop;
  return answers;
}

/** every quiet answer 202, and each delivered to `path` */
async function expectQuietDelivered(answers: Answer[], path: string): Promise<void> {
  expect(answers.length).toBeGreaterThan(0);
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
  const elsewhere = receiver.requests.filter((r) => r.url !== path).length;
  await receiver.waitForRequests(elsewhere + answers.length, 60_000);
  expect(receiver.requests.filter((r) => r.url === path)).toHaveLength(answers.length);
}

it('every rule slot the worst admitted pattern, bodies at the payload limit: each refused 413 rules_deadline_exceeded naming its rule; another account meanwhile all 202 and delivered', async () => {
  expect(compilePattern(WORST).programSize()).toBeGreaterThan(9_900);
  const everyRoute = {
    match: 'any' as const,
    rules: Array.from({ length: MAX_ROUTING_RULES }, (_, i) => ({
      kind: 'regex' as const,
      path: `f${i}`,
      pattern: WORST,
    })),
  };
  // every slot: body filters, field rules and a target's routing rules
  const hostile = await must(
    stack.client.POST('/v1/endpoints', {
      body: {
        name: 'hostile',
        rate_limit_per_minute: 10_000,
        body_filters: Array.from({ length: MAX_BODY_FILTERS }, () => ({ kind: 'not_regex' as const, pattern: WORST })),
        field_rules: everyField,
      },
    }),
  );
  // field rules alone, and a target's routing alone: the bound covers each kind of rule
  const fields = await must(
    stack.client.POST('/v1/endpoints', { body: { name: 'hostile fields', field_rules: everyField } }),
  );
  const routed = await must(stack.client.POST('/v1/endpoints', { body: { name: 'hostile routing' } }));
  const targets: { id: string }[] = [];
  for (const endpoint of [hostile, routed])
    targets.push(
      await must(
        stack.client.POST('/v1/endpoints/{endpointId}/targets', {
          params: { path: { endpointId: endpoint.id } },
          body: {
            kind: 'webhook',
            name: 'routed',
            config: { url: receiver.url('/hostile'), enforce_https: false },
            routing: everyRoute,
          },
        }),
      ),
    );

  const quiet = await quietEndpoint('/quiet');

  const atLimit = abBody(PAYLOAD_LIMIT);
  expect(Buffer.byteLength(atLimit)).toBe(PAYLOAD_LIMIT);
  // it is the limit: one byte more is refused before any rule
  expect(await post(hostile.id, abBody(PAYLOAD_LIMIT + 1))).toMatchObject({ status: 413, code: 'payload_too_large' });

  const hostileAnswers: Answer[][] = [];
  const quietAnswers = await quietWhile(quiet.id, async () => {
    // three at a time, as a sender with several connections would
    for (const endpoint of [hostile, hostile, fields, routed])
      hostileAnswers.push(await Promise.all([1, 2, 3].map(() => post(endpoint.id, atLimit))));
  });

  expect(hostileAnswers).toEqual([
    Array.from({ length: 3 }, () => deadline('body filter 1 (not_regex)')),
    Array.from({ length: 3 }, () => deadline('body filter 1 (not_regex)')),
    Array.from({ length: 3 }, () => deadline('the field rule on f0')),
    Array.from({ length: 3 }, () => deadline(`routing rule 1 of target ${targets[1]!.id}`)),
  ]);
  await expectQuietDelivered(quietAnswers, '/quiet');
  expect(receiver.requests.filter((r) => r.url === '/hostile')).toEqual([]);
}, 240_000);

it('field rules of the worst pattern, re-saved before each small request: each refused naming a field rule; another account meanwhile all 202 and delivered', async () => {
  const resaved = await must(
    stack.client.POST('/v1/endpoints', {
      // a few, so that the pool's work (an ajv validator per rule, one pattern) stays well inside the deadline
      body: { name: 'resaved', rate_limit_per_minute: 10_000, field_rules: everyField.slice(0, 5) },
    }),
  );
  const quiet = await quietEndpoint('/quiet-resaved');
  const answers: Answer[] = [];
  const quietAnswers = await quietWhile(quiet.id, async () => {
    for (let i = 0; i < 10; i++) {
      await must(
        stack.client.PATCH('/v1/endpoints/{endpointId}', {
          params: { path: { endpointId: resaved.id } },
          body: { name: `resaved ${i}` },
        }),
      );
      // an empty string at f0: nothing to match, but its pattern must be compiled to test it
      answers.push(await post(resaved.id, JSON.stringify({ f0: '' })));
    }
  });

  // each is the field rule's refusal, or, on a machine too busy to compile five such patterns
  // within the deadline, the deadline's naming a field rule: never accepted, never a 5xx
  const fieldRefused = {
    status: 400,
    code: 'field_validation_failed',
    message: 'Field validation failed: field f0 does not match its pattern.',
  };
  const deadlineInAFieldRule = {
    status: 413,
    code: 'rules_deadline_exceeded',
    message: expect.stringMatching(/\(stopped in the field rule on f[0-4]\)/),
  };
  expect(answers).toEqual(answers.map((a) => (a.status === 413 ? deadlineInAFieldRule : fieldRefused)));
  await expectQuietDelivered(quietAnswers, '/quiet-resaved');
}, 120_000);

it('a stored pattern RE2 cannot compile (written to the store, not through the API): 503 endpoint_unavailable, no row; saved again through the API, 202', async () => {
  const stored = await must(
    stack.client.POST('/v1/endpoints', {
      body: { name: 'stored broken', field_rules: [{ path: 'email', pattern: '@example' }] },
    }),
  );
  // lookbehind, which the save-time check refuses, put in place before the gateway first loads the endpoint
  await stack.store.connection
    .collection('endpoints')
    .updateOne({ _id: stored.id as never }, { $set: { 'field_rules.0.pattern': '(?<=@)example' } });
  const sent = JSON.stringify({ email: 'a@example.com' });
  expect(await post(stored.id, sent)).toMatchObject({ status: 503, code: 'endpoint_unavailable' });

  await must(
    stack.client.PATCH('/v1/endpoints/{endpointId}', {
      params: { path: { endpointId: stored.id } },
      body: { field_rules: [{ path: 'email', pattern: '@example' }] },
    }),
  );
  // the gateway hears of the change by announcement; until then it may still hold the stored revision
  await eventually(async () => (await post(stored.id, sent)).status === 202, 10_000, 'the fixed endpoint to accept');
  // the refusals before it wrote no row
  const outcomes = await eventually(async () => {
    const rows = await must(stack.client.GET('/v1/activity', { params: { query: { endpoint_id: stored.id } } }));
    return rows.data.length > 0 && rows.data.map((r) => r.outcome);
  });
  expect(outcomes).toEqual(['ACCEPTED']);
}, 60_000);
