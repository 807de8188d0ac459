import type { DeliveryMessageV1 } from '@relay/contracts';
import { PayloadError } from '../../kind';
import type { AttemptResult } from '../../kind';
import { classifySmtp } from '../../transports/smtp';
import type { SmtpTransport } from '../../transports/smtp';
import type { EmailConfig } from './config';
import { composeEmail } from './message';

export interface EmailDeliveryDeps {
  transport: SmtpTransport;
  /** the relay's sender address */
  from: string;
  maxMessageBytes?: number;
}

/**
 * One attempt of one delivery to an email target: compose, send through the relay, classify.
 * A payload that cannot become a message (a line break in the rendered subject, too large,
 * nested too deeply) is a permanent failure of this delivery only: the target is not flagged,
 * the next payload may be fine.
 */
export async function deliverEmail(
  config: EmailConfig,
  d: DeliveryMessageV1,
  deps: EmailDeliveryDeps,
): Promise<AttemptResult> {
  let message;
  try {
    message = await composeEmail(config, d, {
      from: deps.from,
      ...(deps.maxMessageBytes !== undefined ? { maxMessageBytes: deps.maxMessageBytes } : {}),
    });
  } catch (err) {
    if (err instanceof PayloadError)
      return { result: 'permanent', status: null, error: `${err.code}: ${err.message}`, flagTarget: false };
    throw err;
  }
  return classifySmtp(await deps.transport.send(message));
}
