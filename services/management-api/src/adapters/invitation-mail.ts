import { randomBytes } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { SmtpTransport } from '@relay/targets';

export interface Invitation {
  to: string;
  accountName: string;
  role: string;
  link: string;
  expiresAt: Date;
}

/** Sends an invitation; rejects with the relay's answer when it was not taken. */
export type InvitationMailer = (invitation: Invitation) => Promise<void>;

/**
 * Invitations through the operator's mail relay (SMTP_*), the transport email targets use. The
 * message is plain text: the link, the role, and when it stops working.
 */
export function createInvitationMailer(relay: { transport: SmtpTransport; from: string }): InvitationMailer {
  return async (inv) => {
    const raw = await new MailComposer({
      from: relay.from,
      to: inv.to,
      subject: `You are invited to ${inv.accountName} on Relay`,
      text: [
        `You are invited to the Relay account ${inv.accountName} as ${inv.role}.`,
        '',
        'Sign in with your organisation’s identity provider to accept:',
        inv.link,
        '',
        `The link works once, until ${inv.expiresAt.toISOString()}.`,
      ].join('\r\n'),
      messageId: `<${randomBytes(12).toString('hex')}@${relay.from.split('@')[1] ?? 'relay'}>`,
      newline: 'windows',
      disableFileAccess: true,
      disableUrlAccess: true,
      headers: { 'Auto-Submitted': 'auto-generated' },
    })
      .compile()
      .build();
    const outcome = await relay.transport.send({ envelope: { from: relay.from, to: [inv.to] }, raw });
    if (!outcome.ok)
      throw new Error(`the mail relay did not take the invitation: ${outcome.error.code} ${outcome.error.response}`);
    if (outcome.rejected.length > 0)
      throw new Error(`the mail relay refused ${inv.to}: ${outcome.rejected[0]!.response}`);
  };
}
