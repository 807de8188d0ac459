import { parseArgs } from 'node:util';
import { loadConfig } from '@relay/config';
import { newId } from '@relay/contracts';
import { accountExists, connectStore, insertEndpoint } from '@relay/store';
import type { PlanLimits } from '@relay/store';
import { createSecretBox } from '@relay/secrets';
import { createDefaultRegistry } from '@relay/targets';
import { recordAccountAudit } from './adapters/account-audit';
import { DEFAULT_PLAN, openAccount } from './adapters/account-store';
import { createApiKey } from './adapters/api-keys';
import { createTarget } from './adapters/target-store';
import { configSpec } from './config';

/**
 * `npm run bootstrap -- [--account NAME] [--demo-target-url URL]`: creates an account and
 * prints its API key, an owner key (shown once; only its digest is stored). With
 * --demo-target-url it also creates a JSON/POST endpoint with a webhook target, and prints its
 * ingest URL. `--owner-key-for acc_…` instead gives an existing account a new owner key — the
 * way back for an account that lost its owner keys (docs/management-api.md "API keys").
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      account: { type: 'string', default: 'Demo account' },
      'demo-target-url': { type: 'string' },
      'monthly-events': { type: 'string' },
      'payload-limit-bytes': { type: 'string' },
      'owner-key-for': { type: 'string' },
    },
  });
  const config = loadConfig(configSpec, process.env);
  const store = await connectStore(config.mongodbUrl);
  try {
    const existing = values['owner-key-for'];
    if (existing !== undefined) {
      if (!(await accountExists(store, existing))) throw new Error(`no account ${existing}`);
      const { secret, key } = await createApiKey(store, existing, {
        role: 'owner',
        name: 'made by the bootstrap command',
      });
      await recordAccountAudit(store, {
        account_id: existing,
        action: 'key_created',
        actor: 'operator',
        key_id: key.id,
        details: { role: key.role, prefix: key.prefix, name: key.name },
      });
      process.stdout.write(`${JSON.stringify({ account_id: existing, api_key: secret })}\n`);
      return;
    }
    const plan: PlanLimits = {
      ...DEFAULT_PLAN,
      ...(values['monthly-events'] ? { monthly_accepted_events: Number(values['monthly-events']) } : {}),
      ...(values['payload-limit-bytes'] ? { payload_limit_bytes: Number(values['payload-limit-bytes']) } : {}),
    };
    const opened = await openAccount(store, values.account, plan);
    const accountId = opened.account_id;
    const out: Record<string, unknown> = { ...opened };
    const targetUrl = values['demo-target-url'];
    if (targetUrl) {
      const kind = createDefaultRegistry({ secrets: createSecretBox(config.secretsKeys) }).get('webhook')!;
      const v = kind.validateConfig({ url: targetUrl, enforce_https: false });
      if (!v.ok) throw new Error(`--demo-target-url: ${v.errors.map((e) => e.message).join('; ')}`);
      const endpointId = newId('ep');
      await insertEndpoint(store, endpointId, accountId, {
        name: 'demo',
        enabled: true,
        paused: false,
        methods: ['POST'],
        payload_format: 'json',
        inbound_auth: { type: 'NONE' },
      });
      await createTarget(store, accountId, endpointId, {
        kind: 'webhook',
        name: 'demo receiver',
        enabled: true,
        config: v.value as Record<string, unknown>,
        retry_schedule_ms: null,
        limits: null,
        breaker: null,
        routing: null,
        ordering: null,
      });
      out.endpoint_id = endpointId;
      out.ingest_url = `${config.publicBaseUrl.replace(/\/$/, '')}/relay/${endpointId}`;
    }
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    await store.close();
  }
}

main().catch((err: Error) => {
  process.stderr.write(`bootstrap failed: ${err.message}\n`);
  process.exit(1);
});
