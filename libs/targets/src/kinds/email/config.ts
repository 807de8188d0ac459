import type { Validation } from '@relay/contracts';
import type { CheckContext, Field, KindDescription, TextField } from '../../describe/field';
import { checkDescribed } from '../../describe/validate';
import { MAX_ADDRESS_LENGTH, MAX_LOCAL_PART_LENGTH, MAX_RECIPIENTS, MAX_SUBJECT_TEMPLATE_LENGTH } from './limits';

/** An email target's settings. The relay and the sender address are the operator's, not the target's. */
export interface EmailConfig {
  to: string[];
  cc: string[];
  bcc: string[];
  /** a template (kinds/template.ts `{{path}}`) rendered against the payload */
  subject: string;
  reply_to?: string;
}

/** Any CR or LF: in a header it would start a new header line (header injection). */
export const LINE_BREAK = /[\r\n]/;
/**
 * RFC 5321 `Mailbox` without quoted local parts or address literals: dot-atom local part, and a
 * domain of LDH labels (an internationalised domain is accepted in its A-label `xn--` form). No
 * spaces, commas, angle brackets or quotes, so one address can never become two recipients or
 * a display name when nodemailer writes the header.
 */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN =
  /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** Why `address` is not a mailbox Relay sends to; null when it is one. */
export function addressProblem(address: string): string | null {
  if (LINE_BREAK.test(address)) return 'must not contain a line break (CR or LF)';
  if (address.length > MAX_ADDRESS_LENGTH) return `must be at most ${MAX_ADDRESS_LENGTH} characters`;
  const at = address.lastIndexOf('@');
  if (at <= 0) return 'must be an address of the form name@example.com';
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > MAX_LOCAL_PART_LENGTH) return `must have at most ${MAX_LOCAL_PART_LENGTH} characters before the @`;
  if (!LOCAL_PART.test(local) || !DOMAIN.test(domain)) return 'must be an address of the form name@example.com';
  return null;
}

/** One mailbox: the described `email` format, then Relay's stricter rules (addressProblem). */
const address = (label: string, what: string): TextField => ({
  type: 'string',
  label,
  format: 'email',
  maxLength: MAX_ADDRESS_LENGTH,
  example: 'ops@example.com',
  message: `${what} must be an address of the form name@example.com (no display name, no line break)`,
  check: (value: string, ctx) => {
    const problem = addressProblem(value);
    if (problem) ctx.fail(`${what} address ${problem}`);
    return undefined;
  },
});

const recipients = (label: string, what: 'to' | 'cc' | 'bcc', help: string): Field => ({
  type: 'list',
  label,
  help,
  items: address('Address', what),
  maxItems: MAX_RECIPIENTS,
  ...(what === 'to'
    ? { required: true, requiredMessage: 'to is required: at least one address', example: ['ops@example.com'] }
    : { default: [] }),
  ...(what === 'to' ? { check: (list: string[], ctx: CheckContext) => checkRecipients(list, ctx) } : {}),
});

/** At least one `to`, and at most MAX_RECIPIENTS across to, cc and bcc (reported at `config.to`). */
function checkRecipients(to: string[], ctx: CheckContext): undefined {
  if (to.length === 0) ctx.fail('to needs at least one address');
  const count = ['to', 'cc', 'bcc'].reduce(
    (n, k) => n + (Array.isArray(ctx.config[k]) ? (ctx.config[k] as unknown[]).length : 0),
    0,
  );
  if (count > MAX_RECIPIENTS)
    ctx.fail(`at most ${MAX_RECIPIENTS} recipients across to, cc and bcc (this has ${count})`);
  return undefined;
}

/**
 * The email target's settings, described once: save-time validation,
 * the API view, the OpenAPI schemas and the dashboard form all come from it. CR/LF is refused
 * in everything that reaches a header, so a saved target can never inject one; the rendered
 * subject is checked again at send. No credential: the relay's are the operator's.
 */
export const emailDescription: KindDescription = {
  label: 'Email',
  help: "Each event as an email through the operator's mail relay: JSON payloads formatted, text and XML as received; docs/targets-email.md.",
  fields: {
    to: recipients('To', 'to', `one address or more; at most ${MAX_RECIPIENTS} across to, cc and bcc`),
    cc: recipients('Cc (optional)', 'cc', 'shown to every recipient'),
    bcc: recipients('Bcc (optional)', 'bcc', 'only in the SMTP envelope, never in a header'),
    subject: {
      type: 'string',
      label: 'Subject template (optional)',
      maxLength: MAX_SUBJECT_TEMPLATE_LENGTH,
      default: '',
      example: 'New order {{order.id}}',
      help: '{{path.to.field}} over the payload; empty: "Relay: new event"',
      // one header line: refused by its description, so the form refuses a pasted line break too
      pattern: '^[^\\r\\n]*$',
      patternMessage: 'subject must not contain a line break (CR or LF)',
    },
    reply_to: { ...address('Reply-To (optional)', 'reply_to'), example: 'support@example.com' },
  },
};

/** Save-time checks of an email config, without sealing (it holds no credential). */
export function validateEmailConfig(input: unknown): Validation<EmailConfig> {
  return checkDescribed(emailDescription, input) as Validation<EmailConfig>;
}
