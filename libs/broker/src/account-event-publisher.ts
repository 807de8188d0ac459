import { randomUUID } from 'node:crypto';
import { accountEvent, brokerNames, encodeMessage } from '@relay/contracts';
import type { AccountEventInput } from '@relay/contracts';
import type { ConfirmPublisher } from './publisher';

/**
 * Publishes one account event (`relay.account-event.v1`) to the account-events queue, persistent
 * and mandatory on the confirm channel; resolves once the broker confirmed it, rejects with
 * BrokerUnavailableError otherwise (the caller decides whether to retry or log). Any service may
 * call it: events are rare (one per transition, never one per delivery), so they travel alone.
 * Rejects with ContractError, before publishing, an event its consumer would reject. docs/alerts.md.
 */
export async function publishAccountEvent(
  publisher: ConfirmPublisher,
  namespace: string,
  event: AccountEventInput,
): Promise<void> {
  const names = brokerNames(namespace);
  const message = accountEvent(event);
  const body = encodeMessage(message);
  await publisher.publish(names.activityExchange, names.accountEventRoutingKey, body, {
    messageId: `account-event.${randomUUID()}`,
    type: message.type,
  });
}
