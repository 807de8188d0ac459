import { randomBytes } from 'node:crypto';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { createSecretBox } from '@relay/secrets';
import type { AttemptResult, SendOutcome } from '../../../libs/targets/src/kind';
import { createSender } from '../../../libs/targets/src/http/send';
import { createWebhookKind } from '../../../libs/targets/src/kinds/webhook';
import type { WebhookConfig } from '../../../libs/targets/src/kinds/webhook';

export const secrets = createSecretBox(`it:${randomBytes(32).toString('base64')}`);
export const kind = createWebhookKind({ secrets });

/** Receivers run on 127.0.0.1, so the tests' deliverer allowlists loopback (SSRF_ALLOW_CIDRS). */
export const send = createSender({ timeoutMs: 3000, allowCidrs: ['127.0.0.0/8'] });

/** Saves a config through the kind's validation, as the management API does. */
export function saveConfig(input: Record<string, unknown>): WebhookConfig {
  const r = kind.validateConfig({ enforce_https: false, ...input });
  if (!r.ok) throw new Error(`invalid test config: ${JSON.stringify(r.errors)}`);
  return r.value;
}

export function delivery(
  over: Partial<DeliveryMessageV1> = {},
  headers: Record<string, string> = {},
): DeliveryMessageV1 {
  return {
    type: 'relay.delivery.v1',
    event_id: 'evt_it1',
    delivery_id: 'dlv_it1_a',
    attempt: 1,
    account_id: 'acc_it',
    endpoint_id: 'ep_it',
    target_id: 'tg_a',
    target_kind: 'webhook',
    received_at: new Date().toISOString(),
    request: { method: 'POST', source_ip: '198.51.100.7', headers, query: '' },
    payload: { content_type: 'application/json', body_base64: Buffer.from('{"order":42}').toString('base64') },
    ...over,
  };
}

/** One attempt end to end: build, send through the SSRF-guarded sender, classify. */
export async function attempt(
  config: WebhookConfig,
  d: DeliveryMessageV1 = delivery(),
): Promise<{ sent: SendOutcome; result: AttemptResult }> {
  const sent = await send(kind.buildRequest(config, d));
  return { sent, result: kind.classify(sent) };
}
