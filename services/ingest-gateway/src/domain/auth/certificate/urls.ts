import type { CertificateProvider } from '@relay/endpoints';

/**
 * Where a provider's signing certificate may be fetched from, checked before any fetch: HTTPS,
 * the provider's documented hosts, no port or user info. The fetch itself then goes through the
 * SSRF guard, which checks the address the host name resolves to.
 */

/**
 * SNS's hosts: `sns.<region>.amazonaws.com`, or `.com.cn` in China. The label must have a
 * region's shape (`us-east-1`, `cn-north-1`, `us-gov-west-1`): the looser `sns.<anything>` of some
 * validators also matches S3 bucket hosts such as `sns.s3-us-west-2.amazonaws.com`.
 */
const SNS_HOST = /^sns\.[a-z]{2}(?:-[a-z]+)+-\d\.amazonaws\.com(?:\.cn)?$/;

/** PayPal's REST API hosts, live and sandbox, which serve `/v1/notifications/certs/…`. */
const PAYPAL_HOSTS: ReadonlySet<string> = new Set([
  'api.paypal.com',
  'api-m.paypal.com',
  'api.sandbox.paypal.com',
  'api-m.sandbox.paypal.com',
]);

function httpsUrl(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' && url.port === '' && url.username === '' && url.password === '' ? url : undefined;
}

/** A certificate URL the provider documents, or null with what is wrong with it. */
export function certificateUrlProblem(provider: CertificateProvider, text: string): string | null {
  const url = httpsUrl(text);
  if (provider === 'aws_sns')
    return url && SNS_HOST.test(url.hostname) && url.pathname.endsWith('.pem')
      ? null
      : 'SigningCertURL is not an SNS certificate URL (https://sns.<region>.amazonaws.com/….pem)';
  return url && PAYPAL_HOSTS.has(url.hostname) && url.pathname.startsWith('/v1/notifications/certs/')
    ? null
    : 'paypal-cert-url is not a PayPal certificate URL (https://api.paypal.com/v1/notifications/certs/…)';
}

/** SNS's SubscribeURL: an SNS host over HTTPS, asking for ConfirmSubscription; null when it is one. */
export function subscribeUrlProblem(text: string): string | null {
  const url = httpsUrl(text);
  return url && SNS_HOST.test(url.hostname) && url.searchParams.get('Action') === 'ConfirmSubscription'
    ? null
    : 'SubscribeURL is not an SNS ConfirmSubscription URL (https://sns.<region>.amazonaws.com/?Action=ConfirmSubscription…)';
}

/** The names a provider's signing certificate carries (subject CN or a DNS subject alternative name). */
export const SIGNING_CERTIFICATE_NAMES: { readonly [P in CertificateProvider]: readonly string[] } = {
  aws_sns: ['sns.amazonaws.com', 'sns.amazonaws.com.cn'],
  paypal: ['messageverificationcerts.paypal.com', 'messageverificationcerts.sandbox.paypal.com'],
};
