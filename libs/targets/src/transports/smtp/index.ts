// The SMTP transport: one pooled client for the operator's mail relay and the classification
// of what it answered. Email targets compose messages (kinds/email) and send them through it.
export { classifySmtp, enhancedCodeOf } from './classify';
export { SMTP_DEFAULTS } from './config';
export type { SmtpRelayConfig, SmtpSecurity } from './config';
export { createSmtpTransport } from './transport';
export { smtpRelayOf } from './settings';
export type { SmtpSettings } from './settings';
export type { RejectedRecipient, SmtpFailure, SmtpMessage, SmtpOutcome, SmtpTransport } from './transport';
