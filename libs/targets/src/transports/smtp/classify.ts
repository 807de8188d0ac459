import type { AttemptResult } from '../../kind';
import type { RejectedRecipient, SmtpOutcome } from './transport';

/**
 * RFC 3463 enhanced status codes that say the mailbox does not exist (5.1.1 bad destination
 * mailbox, 5.1.2 bad destination system, 5.1.10 null MX): the same address will be refused
 * again, so the target's recipients need fixing and the target is flagged.
 */
const NO_SUCH_RECIPIENT = /^5\.1\.(?:1|2|10)$/;
/** Relays that send no enhanced code still say so in words (Postfix, Exim, Sendmail). */
const NO_SUCH_RECIPIENT_TEXT =
  /user unknown|unknown user|no such (?:user|mailbox)|mailbox (?:not found|unavailable)|does not exist/i;

/** The enhanced status code (`5.1.1`) of a reply, when the relay sends one. */
export function enhancedCodeOf(response: string): string | null {
  return /^\d{3}[ -](\d\.\d{1,3}\.\d{1,3})\b/.exec(response.trim())?.[1] ?? null;
}

function isUnknownRecipient(responseCode: number | null, response: string): boolean {
  const enhanced = enhancedCodeOf(response);
  if (enhanced !== null) return NO_SUCH_RECIPIENT.test(enhanced);
  return responseCode !== null && [550, 551, 553].includes(responseCode) && NO_SUCH_RECIPIENT_TEXT.test(response);
}

/** A reply as it may appear in an activity row: one line, bounded, addresses kept (they are the target's own). */
function replyText(response: string): string {
  return response.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/**
 * How an SMTP attempt ended.
 * - 2xx from DATA, every recipient taken → success.
 * - a 4xx reply (greylisting, mailbox full for now, 421 relay busy), or no reply at all
 *   (connection refused, reset, any timeout) → retry: the relay or the network may recover.
 * - a 5xx reply → permanent; an unknown recipient (5.1.1) also flags the target.
 * - the relay's own configuration failing (AUTH refused, TLS required but not offered or not
 *   trusted) → retry, although AUTH's 535 is a 5xx: it is the operator's relay setting, not this
 *   message or this target, and once the operator fixes it the queued deliveries should go out
 *   rather than all have failed for good (docs/targets-email.md "Classification").
 * - some recipients taken, others refused → permanent: the message reached the accepted ones,
 *   so sending it again would repeat it to them; the error names the refused replies, and an
 *   unknown recipient among them flags the target.
 */
export function classifySmtp(outcome: SmtpOutcome): AttemptResult {
  if (outcome.ok) {
    const status = replyCodeOf(outcome.response) ?? 250;
    if (outcome.rejected.length === 0) return { result: 'success', status };
    return partialDelivery(status, outcome.rejected);
  }
  const { code, responseCode, response } = outcome.error;
  if (code === 'EAUTH' || code === 'ENOAUTH' || code === 'ETLS' || code === 'EREQUIRETLS') {
    return {
      result: 'retry',
      status: responseCode,
      error: `mail relay refused the session (${code}${response ? `: ${replyText(response)}` : ''})`,
    };
  }
  if (responseCode === null) return { result: 'retry', status: null, error: `mail relay unreachable (${code})` };
  const error = `mail relay answered ${replyText(response) || responseCode}`;
  if (responseCode >= 400 && responseCode < 500) return { result: 'retry', status: responseCode, error };
  if (responseCode >= 500)
    return { result: 'permanent', status: responseCode, error, flagTarget: isUnknownRecipient(responseCode, response) };
  return { result: 'retry', status: responseCode, error };
}

function partialDelivery(status: number, rejected: RejectedRecipient[]): AttemptResult {
  const first = rejected[0]!;
  const flagTarget = rejected.some((r) => isUnknownRecipient(r.responseCode, r.response));
  const error = `sent, but ${rejected.length} recipient(s) refused: ${replyText(first.response)}`;
  return { result: 'permanent', status, error, flagTarget };
}

function replyCodeOf(response: string): number | null {
  const m = /^(\d{3})/.exec(response.trim());
  return m ? Number(m[1]) : null;
}
