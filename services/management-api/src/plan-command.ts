import { parseArgs } from 'node:util';
import { connectRedis } from '@relay/cache';
import { loadConfig } from '@relay/config';
import { createLogger } from '@relay/logging';
import { connectStore } from '@relay/store';
import { loadAccount } from './adapters/account-store';
import { OPERATOR } from './adapters/account-audit';
import { createInvalidator } from './adapters/invalidation';
import { changePlan, planOf } from './adapters/plan-store';
import { configSpec } from './config';
import { requestValidator } from './transport/operation';

/**
 * `npm run plan -- --account acc_… [--monthly-events N] [--payload-limit-bytes N] [--name NAME]`:
 * the operator's way to read (no other flag) or set an account's plan, beside the owner's
 * `PATCH /v1/account/plan`. Checked against the same OpenAPI schema, audited with the actor
 * `operator`, and announced to the gateways like the route's changes (Redis unreachable: retried
 * for a few seconds, then the gateways' sweep finds it). Prints the plan as JSON.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      account: { type: 'string' },
      'monthly-events': { type: 'string' },
      'payload-limit-bytes': { type: 'string' },
      name: { type: 'string' },
    },
  });
  if (!values.account) throw new Error('--account acc_… is required');
  const sent: Record<string, unknown> = {};
  if (values.name !== undefined) sent.name = values.name;
  if (values['monthly-events'] !== undefined) sent.monthly_accepted_events = Number(values['monthly-events']);
  if (values['payload-limit-bytes'] !== undefined) sent.payload_limit_bytes = Number(values['payload-limit-bytes']);
  const problems = requestValidator().validate('updatePlan', { params: {}, query: {}, body: sent });
  if (problems.length > 0) throw new Error(problems.map((p) => `${p.field}: ${p.message}`).join('; '));

  const config = loadConfig(configSpec, process.env);
  // stdout carries the result alone
  const logger = createLogger({ service: 'plan-command', level: config.logLevel, stream: process.stderr });
  const store = await connectStore(config.mongodbUrl);
  // only a change is announced: reading the plan needs no Redis
  const redis = Object.keys(sent).length === 0 ? null : connectRedis(config.redisUrl, { maxRetriesPerRequest: 1 });
  try {
    if (!redis) {
      const account = await loadAccount(store, values.account);
      if (!account) throw new Error(`no account ${values.account}`);
      process.stdout.write(`${JSON.stringify({ account_id: account.id, plan: planOf(account.plan) })}\n`);
      return;
    }
    const change = await changePlan(
      store,
      values.account,
      sent,
      OPERATOR,
      createInvalidator(redis, config.namespace, logger),
    );
    if (!change) throw new Error(`no account ${values.account}`);
    process.stdout.write(
      `${JSON.stringify({ account_id: values.account, plan: change.plan, changed: change.changed })}\n`,
    );
  } finally {
    // QUIT: the server closes the connection at once, where a disconnect waits up to 2 s for it
    await redis?.quit().catch(() => redis.disconnect());
    await store.close();
  }
}

main().catch((err: Error) => {
  process.stderr.write(`plan failed: ${err.message}\n`);
  process.exit(1);
});
