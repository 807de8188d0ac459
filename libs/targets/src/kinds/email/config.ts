import type { FieldError, Validation } from '@relay/contracts';
import { MAX_ADDRESS_LENGTH, MAX_LOCAL_PART_LENGTH, MAX_RECIPIENTS, MAX_SUBJECT_TEMPLATE_LENGTH } from './limits';

/** An email target's settings (issue 23, item 3). The relay and the sender address are the operator's, not the target's. */
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
const DOMAIN = /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

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

const KNOWN = new Set(['to', 'cc', 'bcc', 'subject', 'reply_to']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function readList(raw: Record<string, unknown>, name: 'to' | 'cc' | 'bcc', errors: FieldError[]): string[] {
  const value = raw[name];
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    errors.push({ field: `config.${name}`, message: `${name} must be a list of email addresses` });
    return [];
  }
  const out: string[] = [];
  value.forEach((item: unknown, i) => {
    const field = `config.${name}[${i}]`;
    if (typeof item !== 'string') {
      errors.push({ field, message: 'must be an email address' });
      return;
    }
    const address = item.trim();
    // the untrimmed value: a trailing line break is refused, not quietly cut
    const problem = addressProblem(LINE_BREAK.test(item) ? item : address);
    if (problem) errors.push({ field, message: `${name} address ${problem}` });
    else out.push(address);
  });
  return out;
}

/**
 * Save-time validation (issue 23, item 3): every problem at its field. CR/LF is refused in
 * everything that reaches a header — addresses, the subject template, reply-to — so a saved
 * target can never inject a header; the rendered subject is checked again at send.
 */
export function validateEmailConfig(input: unknown): Validation<EmailConfig> {
  const errors: FieldError[] = [];
  if (!isRecord(input)) return { ok: false, errors: [{ field: 'config', message: 'config must be an object' }] };
  for (const key of Object.keys(input)) if (!KNOWN.has(key)) errors.push({ field: `config.${key}`, message: `unknown setting ${key}` });
  const to = readList(input, 'to', errors);
  const cc = readList(input, 'cc', errors);
  const bcc = readList(input, 'bcc', errors);
  if (Array.isArray(input.to) && input.to.length === 0) errors.push({ field: 'config.to', message: 'to needs at least one address' });
  if (input.to === undefined) errors.push({ field: 'config.to', message: 'to is required: at least one address' });
  const count = [input.to, input.cc, input.bcc].reduce<number>((n, l) => n + (Array.isArray(l) ? l.length : 0), 0);
  if (count > MAX_RECIPIENTS) errors.push({ field: 'config.to', message: `at most ${MAX_RECIPIENTS} recipients across to, cc and bcc (this has ${count})` });
  const subject = readSubject(input.subject, errors);
  const replyTo = readReplyTo(input.reply_to, errors);
  if (errors.length > 0) return { ok: false, errors };
  const value: EmailConfig = { to, cc, bcc, subject };
  if (replyTo !== undefined) value.reply_to = replyTo;
  return { ok: true, value };
}

function readSubject(value: unknown, errors: FieldError[]): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') {
    errors.push({ field: 'config.subject', message: 'subject must be text' });
    return '';
  }
  if (LINE_BREAK.test(value)) errors.push({ field: 'config.subject', message: 'subject must not contain a line break (CR or LF)' });
  else if (value.length > MAX_SUBJECT_TEMPLATE_LENGTH) errors.push({ field: 'config.subject', message: `subject must be at most ${MAX_SUBJECT_TEMPLATE_LENGTH} characters` });
  return value.trim();
}

function readReplyTo(value: unknown, errors: FieldError[]): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') {
    errors.push({ field: 'config.reply_to', message: 'reply_to must be an email address' });
    return undefined;
  }
  const problem = addressProblem(LINE_BREAK.test(value) ? value : value.trim());
  if (problem) errors.push({ field: 'config.reply_to', message: `reply_to ${problem}` });
  return value.trim();
}
