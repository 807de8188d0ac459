import { bodyMac, bodySigned, PLAIN, stripeLike, stripeScheme, tokenHeader } from '../recipes';
import type { PresetSpec } from '../spec';

/** Shops, shipping, CMS and website builders. */
export const COMMERCE_PRESETS = {
  shopify: {
    label: 'Shopify',
    docs: 'https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-2-validate-the-origin-of-your-webhook-to-ensure-its-coming-from-shopify',
    scheme: bodyMac('sha256', 'base64'),
    signature: { header: 'x-shopify-hmac-sha256', format: PLAIN },
    id: { header: 'x-shopify-webhook-id' },
    secret: { format: 'text', where: 'Partner Dashboard → app → Client credentials → Client secret (or Admin → Notifications → Webhooks key)' },
    oracle: { kind: 'documented' },
  },
  woocommerce: bodySigned(
    'WooCommerce',
    'https://woocommerce.com/document/webhooks/',
    'x-wc-webhook-signature',
    'sha256',
    'base64',
    'WooCommerce → Settings → Advanced → Webhooks → webhook → Secret',
    { id: { header: 'x-wc-webhook-delivery-id' } },
  ),
  aftership: bodySigned(
    'AfterShip',
    'https://www.aftership.com/docs/tracking/webhook/webhook-signature',
    'aftership-hmac-sha256',
    'sha256',
    'base64',
    'Settings → Notifications → Webhooks → Webhook secret',
  ),
  easypost: bodySigned(
    'EasyPost',
    'https://docs.easypost.com/guides/webhooks-guide#hmac-validation',
    'x-hmac-signature',
    'sha256',
    'hex',
    'The webhook_secret you set on the webhook (NFKD-normalised by EasyPost; ASCII secrets are unchanged)',
    { prefix: 'hmac-sha256-hex=', id: { bodyPath: 'id' } },
  ),
  webflow: {
    label: 'Webflow',
    docs: 'https://developers.webflow.com/data/docs/working-with-webhooks#validating-request-signatures',
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'text', signed: ['timestamp', { text: ':' }, 'body'], encoding: 'hex' },
    signature: { header: 'x-webflow-signature', format: PLAIN },
    timestamp: { header: 'x-webflow-timestamp', unit: 'milliseconds', toleranceSeconds: 300 },
    secret: { format: 'text', where: 'The OAuth app\'s client secret, or the webhook secret shown when the site webhook was created' },
    oracle: { kind: 'documented' },
  },
  storyblok: bodySigned(
    'Storyblok',
    'https://www.storyblok.com/docs/concepts/webhooks#securing-a-webhook',
    'webhook-signature',
    'sha1',
    'hex',
    'Space settings → Webhooks → webhook → Webhook secret',
  ),
  sanity: {
    label: 'Sanity',
    docs: 'https://www.sanity.io/docs/webhooks#verifying-webhook-signatures',
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'text', signed: ['timestamp', { text: '.' }, 'body'], encoding: 'base64url' },
    signature: { header: 'sanity-webhook-signature', format: stripeLike() },
    // @sanity/webhook documents no window; set tolerance_seconds to enforce one.
    timestamp: { unit: 'milliseconds', toleranceSeconds: null },
    id: { header: 'idempotency-key' },
    secret: { format: 'text', where: 'sanity.io/manage → project → API → Webhooks → webhook → Secret' },
    oracle: { kind: 'documented' },
  },
  calendly: stripeScheme('Calendly', 'https://developer.calendly.com/api-docs/4c305798a61d3-webhook-signatures', 'calendly-webhook-signature', 'The signing_key you set when creating the webhook subscription', {
    // Calendly's examples allow three minutes.
    toleranceSeconds: 180,
  }),
  cal_com: bodySigned('Cal.com', 'https://cal.com/docs/developing/guides/automation/webhooks#verifying-the-authenticity-of-the-received-payload', 'x-cal-signature-256', 'sha256', 'hex', 'Settings → Developer → Webhooks → webhook → Secret'),
  acuity: bodySigned(
    'Acuity Scheduling',
    'https://developers.acuityscheduling.com/docs/webhooks#verifying-webhook-requests',
    'x-acuity-signature',
    'sha256',
    'base64',
    'Integrations → API → API Key',
  ),
  typeform: bodySigned(
    'Typeform',
    'https://www.typeform.com/developers/webhooks/secure-your-webhooks/',
    'typeform-signature',
    'sha256',
    'base64',
    'The secret you set on the webhook (API or Connect → Webhooks → Edit)',
    { prefix: 'sha256=', id: { bodyPath: 'event_id' } },
  ),
  tally: bodySigned('Tally', 'https://tally.so/help/webhooks#signing-secret', 'tally-signature', 'sha256', 'base64', 'Form → Integrations → Webhooks → Signing secret', {
    id: { bodyPath: 'eventId' },
  }),
  docusign: bodySigned(
    'Docusign Connect',
    'https://developers.docusign.com/platform/webhooks/connect/hmac/',
    'x-docusign-signature-1',
    'sha256',
    'base64',
    'Settings → Connect → Connect Keys → HMAC key',
    // With two HMAC keys Docusign adds x-docusign-signature-2; put the key that signs -1 first.
    { extraCredentialHeaders: ['x-docusign-signature-2'] },
  ),
  hubspot: {
    label: 'HubSpot',
    docs: 'https://developers.hubspot.com/docs/apps/legacy-apps/authentication/validating-requests#validate-the-v3-request-signature',
    // v3: method + URI + body + timestamp. The URI is taken as received (see docs/inbound-auth.md).
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'text', signed: ['method', 'url', 'body', 'timestamp'], encoding: 'base64' },
    signature: { header: 'x-hubspot-signature-v3', format: PLAIN },
    timestamp: { header: 'x-hubspot-request-timestamp', unit: 'milliseconds', toleranceSeconds: 300 },
    extraCredentialHeaders: ['x-hubspot-signature'],
    secret: { format: 'text', where: 'Developer account → app → Auth → Client secret' },
    oracle: { kind: 'documented' },
  },
  close: {
    label: 'Close',
    docs: 'https://developer.close.com/topics/webhooks/#webhook-signatures',
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'hex', signed: ['timestamp', 'body'], encoding: 'hex' },
    signature: { header: 'close-sig-hash', format: PLAIN },
    // Close documents no window; set tolerance_seconds to enforce one.
    timestamp: { header: 'close-sig-timestamp', unit: 'seconds', toleranceSeconds: null },
    secret: { format: 'hex', where: 'The signature_key returned when the webhook subscription was created' },
    oracle: { kind: 'documented' },
  },
  oncehub: stripeScheme('OnceHub', 'https://developers.oncehub.com/docs/webhook-signatures', 'oncehub-signature', 'Webhook & API integration → webhook → View secret', {
    toleranceSeconds: null,
    signatureKey: 's',
  }),
  mux: stripeScheme('Mux', 'https://www.mux.com/docs/core/verify-webhook-signatures', 'mux-signature', 'Settings → Webhooks → webhook → Signing secret', {
    toleranceSeconds: 300,
    id: { bodyPath: 'id' },
  }),
  thinkific: bodySigned(
    'Thinkific',
    'https://developers.thinkific.com/api/webhooks/#verifying-webhooks',
    'x-thinkific-hmac-sha256',
    'sha256',
    'hex',
    'Settings → Code & analytics → API → API key (or the app\'s client secret)',
  ),
  dub: bodySigned('Dub', 'https://dub.co/docs/integrations/webhooks#verify-webhook-signature', 'dub-signature', 'sha256', 'hex', 'Workspace → Settings → Webhooks → webhook → Secret', {
    id: { bodyPath: 'id' },
  }),
  revenuecat: tokenHeader(
    'RevenueCat',
    'https://www.revenuecat.com/docs/integrations/webhooks#security-and-best-practices',
    'authorization',
    'Project → Integrations → Webhooks → Authorization header value (you choose it)',
    { bodyPath: 'event.id' },
  ),
} satisfies Record<string, PresetSpec>;
