/**
 * Caps of the email kind (docs/targets-email.md).
 *
 * Recipients: 50 addresses across to, cc and bcc together — Amazon SES's per-message maximum,
 * the lowest of the common relays (Gmail/Workspace allow 100 per message), so a target that
 * saves is accepted by any of them. A list bigger than that is a mailing list's job.
 */
export const MAX_RECIPIENTS = 50;
/** RFC 5321 §4.5.3.1.3: a path (address) is at most 256 octets with its angle brackets. */
export const MAX_ADDRESS_LENGTH = 254;
/** RFC 5321 §4.5.3.1.1: a local part is at most 64 octets. */
export const MAX_LOCAL_PART_LENGTH = 64;
/** The subject template as saved; rendered subjects are cut to MAX_SUBJECT_LENGTH. */
export const MAX_SUBJECT_TEMPLATE_LENGTH = 500;
/**
 * A rendered subject is cut here (with `…`). RFC 5322 §2.1.1 allows 998 characters per line
 * and recommends 78; nodemailer folds it into encoded words, and mail clients show far less.
 */
export const MAX_SUBJECT_LENGTH = 250;
/**
 * The whole message as sent (headers, text part and HTML part, after transfer encoding):
 * Postfix's default `message_size_limit` (10,240,000 bytes), what most self-run relays accept;
 * a larger message would be refused with 552 after it was transferred. Checked before sending.
 */
export const MAX_MESSAGE_BYTES = 10_240_000;
export const DEFAULT_SUBJECT = 'Relay: new event';
