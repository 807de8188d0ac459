import { must } from '@relay/client';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * The gateway picks up a plan change like an endpoint change — the
 * management API announces the account once on the cache-changes channel, and
 * the next request to the real gateway meets the new payload limit or quota. Set through
 * `PATCH /v1/account/plan` (owner key) and through the operator command `npm run plan`.
 */
let stack: Stack;
let endpointId: string;
beforeAll(async () => {
  stack = await startStack('plan-limits', { only: ['management-api', 'ingest-gateway'] });
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'plan' } }))).id;
});
afterAll(() => stack?.stop());

const send = async (bytes: number): Promise<{ status: number; body: any }> => {
  const body = JSON.stringify({ pad: 'x'.repeat(Math.max(0, bytes - 10)) });
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, body: await res.json() };
};

/** `npm run plan -- …`: the built command, with the stack's environment. */
async function planCommand(args: string[]): Promise<Record<string, unknown>> {
  const child = spawn(
    process.execPath,
    [path.resolve(__dirname, '../../services/management-api/dist/plan-command.js'), ...args],
    { env: { PATH: process.env.PATH ?? '', ...stack.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`plan command failed (${code}): ${err}`);
  return JSON.parse(out.trim()) as Record<string, unknown>;
}

describe('plan limits reach the gateway with the next request', () => {
  it('a lower payload limit set by the owner: the next larger payload is 413', async () => {
    expect((await send(4096)).status).toBe(202); // the endpoint (and its plan) is now cached by the gateway
    const res = await must(stack.client.PATCH('/v1/account/plan', { body: { payload_limit_bytes: 2048 } }));
    expect(res.plan.payload_limit_bytes).toBe(2048);
    const refused = await send(4096);
    expect(refused).toEqual({ status: 413, body: expect.objectContaining({ code: 'payload_too_large' }) });
    expect((await send(1024)).status).toBe(202);
  });

  it('a quota lowered to what was already accepted: the next request is 429 QUOTA_EXCEEDED', async () => {
    const usage = await must(stack.client.GET('/billing/usage'));
    expect(usage.accepted_events).toBeGreaterThan(0);
    await must(stack.client.PATCH('/v1/account/plan', { body: { monthly_accepted_events: usage.accepted_events } }));
    const refused = await send(100);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('quota_exceeded');
  });

  it('the operator command sets the plan the same way: raised again, the next request is accepted', async () => {
    const out = await planCommand([
      '--account',
      stack.accountId,
      '--monthly-events',
      '1000000',
      '--payload-limit-bytes',
      '262144',
    ]);
    expect(out).toMatchObject({
      account_id: stack.accountId,
      plan: { monthly_accepted_events: 1000000, payload_limit_bytes: 262144 },
      changed: expect.any(Array),
    });
    expect((await send(4096)).status).toBe(202);
    const audit = await must(stack.client.GET('/v1/audit', { params: { query: { limit: 1 } } }));
    expect(audit.data[0]).toMatchObject({ action: 'plan_changed', actor: 'operator' });
  });

  it('the operator command refuses a bad value with the document’s message, and reads the plan without flags', async () => {
    await expect(planCommand(['--account', stack.accountId, '--payload-limit-bytes', '12'])).rejects.toThrow(
      'payload_limit_bytes: must be an integer from 1024 to 104857600',
    );
    expect(await planCommand(['--account', stack.accountId])).toEqual({
      account_id: stack.accountId,
      plan: expect.objectContaining({ monthly_accepted_events: 1000000 }),
    });
  });
});
