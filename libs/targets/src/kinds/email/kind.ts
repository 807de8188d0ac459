import { describedConfig } from '../../describe/kind-config';
import type { KindInfo, SecretSealer, TransportKind } from '../../kind';
import { classifySmtp } from '../../transports/smtp';
import type { SmtpTransport } from '../../transports/smtp';
import { emailDescription } from './config';
import type { EmailConfig } from './config';
import { composeEmail } from './message';

/**
 * Delays between attempts, in ms. A relay's 4xx is greylisting, a rate limit or a relay being
 * restarted: greylisting wants minutes (RFC 6647 §2.1 suggests retrying after some minutes),
 * so the schedule reaches 5 and 15 minutes early and ends at an hour.
 */
export const EMAIL_RETRY_SCHEDULE_MS: readonly number[] = [10_000, 60_000, 300_000, 900_000, 3_600_000];

export const emailInfo: KindInfo = {
  kind: 'email',
  channel: 'outputs',
  defaultRetryScheduleMs: EMAIL_RETRY_SCHEDULE_MS,
  description: emailDescription,
  resendable: false,
};

/** The operator's mail relay as the deliverer built it; absent where no relay is configured. */
export interface MailRelay {
  transport: SmtpTransport;
  /** the sender address (SMTP_FROM) */
  from: string;
  maxMessageBytes?: number;
}

export interface EmailKindDeps {
  secrets: SecretSealer;
  mail?: MailRelay;
}

/**
 * The email target: no credential of its own (the relay's are the
 * operator's), so its config is shown as stored. Composing throws PayloadError for a header
 * line break or an oversized message, which the deliverer records without flagging the target.
 */
export function createEmailKind(deps: EmailKindDeps): TransportKind<EmailConfig> {
  return {
    ...emailInfo,
    ...describedConfig<EmailConfig>(emailDescription, deps.secrets),
    deliver: async (config, d) => {
      const mail = deps.mail;
      // an operator setting, not the target's: the deliveries wait (and can be redriven) until it is set
      if (!mail)
        return { result: 'retry', status: null, error: 'no mail relay is configured on this deliverer (SMTP_HOST)' };
      const message = await composeEmail(config, d, {
        from: mail.from,
        ...(mail.maxMessageBytes !== undefined ? { maxMessageBytes: mail.maxMessageBytes } : {}),
      });
      return classifySmtp(await mail.transport.send(message));
    },
  };
}
