import { randomBytes } from 'node:crypto';
import type { PrivateServers } from '../../support/private-servers';
import { bootstrapAccount, startService } from '../../support/services';
import type { RunningService, ServiceName } from '../../support/services';

/**
 * Relay on the chaos run's private servers: every service its own process from dist/, two
 * webhook-deliverers (one is killed while the other keeps delivering), one activity-writer
 * (one per store). Services log at warn: the run's 100,000 requests would otherwise be
 * 100,000 log lines held in memory per service.
 */
export interface ChaosStack {
  env: Record<string, string>;
  gateway: RunningService;
  api: RunningService;
  deliverers: RunningService[];
  writer: RunningService;
  /** every process the run started, killed ones included */
  started: RunningService[];
  apiKey: string;
  startService(name: ServiceName): Promise<RunningService>;
  call(path: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

export interface ChaosStackOptions {
  /** retry tiers the deliverers declare (RETRY_TIERS_MS) */
  retryTiersMs: number[];
  monthlyEvents: number;
}

export async function startChaosStack(servers: PrivateServers, opts: ChaosStackOptions): Promise<ChaosStack> {
  const env: Record<string, string> = {
    ...servers.env('relay_chaos'),
    RELAY_NAMESPACE: 'chaos',
    SSRF_ALLOW_CIDRS: '127.0.0.0/8',
    SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    LOG_LEVEL: 'warn',
  };
  const perService: Partial<Record<ServiceName, Record<string, string>>> = {
    'management-api': { PUBLIC_BASE_URL: 'http://127.0.0.1:1' },
    // no jitter: a failed first attempt waits exactly the first tier
    'webhook-deliverer': {
      RETRY_TIERS_MS: opts.retryTiersMs.join(','),
      RETRY_JITTER_PCT: '0',
      RETRY_AFTER_MAX_MS: String(Math.min(...opts.retryTiersMs)),
    },
  };
  const started: RunningService[] = [];
  const start = async (name: ServiceName): Promise<RunningService> => {
    const svc = await startService(name, { ...env, ...(perService[name] ?? {}) });
    started.push(svc);
    return svc;
  };
  const stack = { env, started, startService: start, apiKey: '' } as Partial<ChaosStack> as ChaosStack;
  stack.stop = async () => {
    await Promise.all(started.map((s) => s.stop('SIGTERM')));
  };
  stack.call = async (path, init = {}) => {
    const res = await fetch(`${stack.api.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  try {
    stack.api = await start('management-api');
    stack.writer = await start('activity-writer');
    stack.deliverers = [await start('webhook-deliverer'), await start('webhook-deliverer')];
    stack.gateway = await start('ingest-gateway');
    stack.apiKey = (
      await bootstrapAccount(env, ['--account', 'chaos', '--monthly-events', String(opts.monthlyEvents)])
    ).api_key;
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return stack;
}
