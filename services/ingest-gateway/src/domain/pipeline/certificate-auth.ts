import type { CertificatePlan } from '../auth/certificate';
import { rejections } from '../errors';
import type { IngestRejection } from '../errors';
import type { SigningCertificates, SubscriptionConfirmer } from '../ports';
import { textReply } from '../handshakes/reply';

/**
 * Step 3 for a certificate-signed preset (docs/inbound-auth.md "Certificate-signed presets"):
 * the request was read and its certificate URL checked against the provider's hosts
 * (`certificatePlanOf`); here the certificate is fetched (or found kept) and the signature
 * verified with it. Null: authenticated.
 */
export async function verifyWithCertificate(
  certificates: SigningCertificates,
  plan: CertificatePlan,
  now: Date,
): Promise<IngestRejection | null> {
  if (!plan.ok) return rejections.authFailed(plan.reason);
  const { signed } = plan;
  const answer = await certificates.get(signed.certificateUrl, signed.provider, now);
  if (!answer.ok)
    return 'unavailable' in answer
      ? rejections.signingCertificateUnavailable(`signing certificate not fetched: ${answer.unavailable}`)
      : rejections.authFailed(answer.untrusted);
  const result = signed.verify(answer.key);
  return result.ok ? null : rejections.authFailed(result.reason);
}

/**
 * SNS's SubscriptionConfirmation, once its signature passed: Relay visits the SubscribeURL, as
 * AWS documents, and answers 200; the message is never delivered. A SubscribeURL that does not
 * answer 2xx is a 503 (the row says why): the subscription stays pending.
 */
export async function confirmSubscription(
  confirmer: SubscriptionConfirmer,
  subscribeUrl: string,
): Promise<IngestRejection> {
  const confirmed = await confirmer.confirm(subscribeUrl);
  if (!confirmed.ok) return rejections.subscriptionNotConfirmed(`SNS SubscribeURL: ${confirmed.problem}`);
  return rejections.handshakeAnswered(
    'SNS SubscriptionConfirmation answered (subscription confirmed)',
    textReply('confirmed'),
  );
}
