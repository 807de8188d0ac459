// The email output: settings, message composition and one attempt's send.
// Wired as a kind of the catalog once the kind-description model lands (docs/targets-email.md).
export { emailBody, escapeHtml } from './body';
export type { EmailBody } from './body';
export { addressProblem, emailDescription, validateEmailConfig } from './config';
export type { EmailConfig } from './config';
export { deliverEmail } from './deliver';
export type { EmailDeliveryDeps } from './deliver';
export { composeEmail, messageIdFor, renderSubject } from './message';
export type { ComposeOptions } from './message';
export { DEFAULT_SUBJECT, MAX_MESSAGE_BYTES, MAX_RECIPIENTS, MAX_SUBJECT_LENGTH } from './limits';
export { createEmailKind, EMAIL_RETRY_SCHEDULE_MS, emailInfo } from './kind';
export type { EmailKindDeps, MailRelay } from './kind';
