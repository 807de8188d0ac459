import type { DeliveryChannel } from '@relay/contracts';
import type { TargetKind } from './kind';
import { blockChatKind } from './kinds/block_chat';
import { embedChatKind } from './kinds/embed_chat';
import { createWebhookKind } from './kinds/webhook';
import type { SecretSealer } from './kinds/webhook';
import { createRegistry } from './registry';
import type { TargetRegistry } from './registry';

/** What kinds may need to be built: the secret box for credentials stored with a target. */
export interface KindDeps {
  secrets: SecretSealer;
}

interface CatalogEntry {
  kind: string;
  channel: DeliveryChannel;
  create(deps: KindDeps): TargetKind;
}

/**
 * Every target kind Relay ships — adding a kind adds one entry here. The channel is known
 * without building the kind, so the gateway routes deliveries without holding any secret.
 */
const CATALOG: readonly CatalogEntry[] = [
  { kind: 'webhook', channel: 'webhook', create: (deps) => createWebhookKind({ secrets: deps.secrets }) },
  { kind: 'embed_chat', channel: 'chat', create: () => embedChatKind },
  { kind: 'block_chat', channel: 'chat', create: () => blockChatKind },
];

export function createDefaultRegistry(deps: KindDeps): TargetRegistry {
  return createRegistry(
    CATALOG.map((entry) => {
      const kind = entry.create(deps);
      if (kind.kind !== entry.kind || kind.channel !== entry.channel) throw new Error(`catalog entry ${entry.kind} does not match its kind`);
      return kind;
    }),
  );
}

/** The delivery queue a kind's deliveries travel on; undefined for an unknown kind. */
export function channelOf(kind: string): DeliveryChannel | undefined {
  return CATALOG.find((e) => e.kind === kind)?.channel;
}
