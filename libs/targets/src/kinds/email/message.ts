import { createHash } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import { encodeWord } from 'nodemailer/lib/mime-funcs';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { PayloadError } from '../../kind';
import { readPayload, renderTemplate, templateData, truncateText } from '../template';
import type { SmtpMessage } from '../../transports/smtp';
import { emailBody } from './body';
import { LINE_BREAK } from './config';
import type { EmailConfig } from './config';
import { DEFAULT_SUBJECT, MAX_MESSAGE_BYTES, MAX_SUBJECT_LENGTH } from './caps';

export interface ComposeOptions {
  /** the relay's sender address (SmtpRelayConfig.from) */
  from: string;
  /** defaults to MAX_MESSAGE_BYTES */
  maxMessageBytes?: number;
}

/**
 * The Message-ID of a delivery: the same for every attempt, so a retried attempt is
 * recognisably the same message (a receiving system or a reader can drop the second copy),
 * and different for a resend, which has its own delivery id. The right-hand side is the
 * sender's domain, as RFC 5322 §3.6.4 suggests, so ids of two Relay deployments never collide.
 */
export function messageIdFor(deliveryId: string, from: string): string {
  const domain = from.slice(from.lastIndexOf('@') + 1) || 'relay.invalid';
  return `<${deliveryId}@${domain}>`;
}

/** The rendered subject; CR/LF from a payload value is refused, never folded into a header. */
export function renderSubject(config: EmailConfig, payloadData: unknown): string {
  const subject = renderTemplate(config.subject || DEFAULT_SUBJECT, payloadData).trim();
  if (LINE_BREAK.test(subject))
    throw new PayloadError(
      'HEADER_INJECTION',
      'the rendered subject contains a line break (CR or LF); a payload value cannot start a new header',
    );
  return truncateText(subject, MAX_SUBJECT_LENGTH);
}

/**
 * The Subject header's value. Mail clients decode RFC 2047 encoded words (`=?charset?Q?…?=`)
 * wherever they appear, so a payload value written as one would display as whatever it encodes
 * (a line break and a fake `Bcc:`). A subject holding `=?` is therefore sent as encoded words of
 * its whole text: decoded once, it shows `=?…?=` exactly as written. Any other subject goes to
 * the composer as text (it encodes non-ASCII itself).
 */
export function subjectHeader(subject: string): string {
  return subject.includes('=?') ? encodeWord(subject, 'B', 52) : subject;
}

/**
 * One delivery as an email: the envelope holds every recipient (bcc only
 * there), the message its headers and parts. Deterministic per delivery — Message-ID, Date
 * (the event's time) and MIME boundaries all derive from it — so every attempt sends the same
 * bytes. Throws PayloadError when a header would carry a line break or the message passes
 * the size limit: both are about this payload, so the target is not flagged.
 */
export async function composeEmail(
  config: EmailConfig,
  d: DeliveryMessageV1,
  opts: ComposeOptions,
): Promise<SmtpMessage> {
  for (const address of [opts.from, ...config.to, ...config.cc, ...config.bcc, config.reply_to ?? '']) {
    // checked at save too; a stored config edited behind the API must not reach a header either
    if (LINE_BREAK.test(address))
      throw new PayloadError('HEADER_INJECTION', 'an address of this target contains a line break (CR or LF)');
  }
  const payload = readPayload(d.payload);
  const body = emailBody(payload);
  const mail = new MailComposer({
    from: opts.from,
    to: config.to,
    cc: config.cc.length > 0 ? config.cc : undefined,
    replyTo: config.reply_to,
    subject: subjectHeader(renderSubject(config, templateData(payload))),
    messageId: messageIdFor(d.delivery_id, opts.from),
    date: new Date(d.received_at),
    text: body.text,
    html: body.html,
    textEncoding: 'quoted-printable',
    // RFC 5322 §2.3: CR and LF only as CRLF. A payload's bare LFs are sent as CRLF; relays that
    // refuse bare line feeds (SMTP smuggling defences) would otherwise refuse the message.
    newline: 'windows',
    baseBoundary: createHash('sha256').update(d.delivery_id).digest('hex').slice(0, 16),
    disableFileAccess: true,
    disableUrlAccess: true,
    headers: {
      // RFC 3834: machine-generated, so auto-responders do not answer it
      'Auto-Submitted': 'auto-generated',
      'X-Relay-Event-Id': d.event_id,
      'X-Relay-Delivery-Id': d.delivery_id,
    },
  });
  const raw = await mail.compile().build();
  const limit = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  if (raw.length > limit)
    throw new PayloadError('MESSAGE_TOO_LARGE', `the email would be ${raw.length} bytes, over the limit of ${limit}`);
  return { envelope: { from: opts.from, to: [...config.to, ...config.cc, ...config.bcc] }, raw };
}
