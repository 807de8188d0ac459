import type { PresetSpec } from '../spec';

/**
 * Providers that sign with a certificate they publish and name in each request
 * (docs/inbound-auth.md "Certificate-signed presets"). The "secrets" are not keys: SNS's are the
 * topic ARNs a message may come from (AWS: "reject any message with an unexpected TopicArn"),
 * PayPal's the webhook id, which PayPal signs with each transmission.
 */
export const CERTIFICATE_PRESETS = {
  aws_sns: {
    label: 'AWS SNS',
    docs: 'https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html',
    scheme: { family: 'certificate', provider: 'aws_sns' },
    id: { bodyPath: 'MessageId' },
    secret: { format: 'sns_topic_arn', where: 'SNS console → Topics → the topic → ARN' },
    oracle: { kind: 'documented' },
    handshake: 'sns_subscription_confirmation',
  },
  paypal: {
    label: 'PayPal',
    docs: 'https://developer.paypal.com/api/rest/webhooks/rest/',
    scheme: { family: 'certificate', provider: 'paypal' },
    signature: { header: 'paypal-transmission-sig', format: { kind: 'plain' } },
    // PayPal documents no replay window: checked only when tolerance_seconds is set
    timestamp: { header: 'paypal-transmission-time', unit: 'iso8601', toleranceSeconds: null },
    id: { header: 'paypal-transmission-id' },
    secret: {
      format: 'paypal_webhook_id',
      where: 'PayPal developer dashboard → Apps → the app → Webhooks → Webhook ID',
    },
    oracle: { kind: 'documented' },
  },
} satisfies Record<string, PresetSpec>;
