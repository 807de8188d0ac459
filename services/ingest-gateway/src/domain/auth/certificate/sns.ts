import { jsonObject } from '../../handshakes/reply';
import { certificateUrlProblem, subscribeUrlProblem } from './urls';
import { base64Signature, refused, rsaVerifier } from './plan';
import type { CertificatePlan } from './plan';

/**
 * The fields SNS signs, in order, per message type (docs.aws.amazon.com/sns "Verifying the
 * signatures of Amazon SNS messages"): each as `name\nvalue\n`; Subject only when present.
 */
const SIGNED_FIELDS = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
} as const;
type MessageType = keyof typeof SIGNED_FIELDS;

/** SignatureVersion 1 is SHA1withRSA, 2 SHA256withRSA. */
const DIGESTS = { '1': 'sha1', '2': 'sha256' } as const;

/**
 * An SNS message (the JSON body of the POST): its type, signature version, certificate URL and
 * topic checked, the string to sign built. `topics` are the endpoint's "secrets": the ARNs it
 * takes messages from.
 */
export function snsPlan(rawBody: Buffer, topics: readonly string[]): CertificatePlan {
  const message = jsonObject(rawBody);
  if (message === undefined) return refused('the body is not an SNS message (a JSON object)');
  const type = message.Type;
  if (typeof type !== 'string' || !(type in SIGNED_FIELDS)) return refused('SNS message Type is missing or unknown');
  const fields = SIGNED_FIELDS[type as MessageType];
  const text = (name: string): string | undefined =>
    typeof message[name] === 'string' ? (message[name] as string) : undefined;

  const version = text('SignatureVersion');
  const digest = version === '1' || version === '2' ? DIGESTS[version] : undefined;
  if (digest === undefined) return refused('SNS SignatureVersion is missing or not 1 or 2');
  const signature = base64Signature(text('Signature') ?? '');
  if (signature === undefined) return refused('SNS Signature is missing or not base64');
  const certificateUrl = text('SigningCertURL') ?? '';
  const urlProblem = certificateUrlProblem('aws_sns', certificateUrl);
  if (urlProblem) return refused(urlProblem);
  const topic = text('TopicArn');
  if (topic === undefined || !topics.includes(topic)) return refused('SNS TopicArn is not one of the endpoint topics');

  let signed = '';
  for (const name of fields) {
    const value = text(name);
    if (value === undefined) {
      if (name === 'Subject') continue;
      return refused(`SNS ${type} has no ${name}`);
    }
    signed += `${name}\n${value}\n`;
  }
  const subscribeUrl = type === 'SubscriptionConfirmation' ? text('SubscribeURL')! : undefined;
  if (subscribeUrl !== undefined) {
    const problem = subscribeUrlProblem(subscribeUrl);
    if (problem) return refused(problem);
  }
  return {
    ok: true,
    signed: {
      provider: 'aws_sns',
      certificateUrl,
      verify: rsaVerifier(digest, [signed], signature),
      ...(subscribeUrl !== undefined ? { subscribeUrl } : {}),
    },
  };
}
