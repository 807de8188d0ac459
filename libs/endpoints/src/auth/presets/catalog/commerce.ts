import { bodyMac, PLAIN } from '../recipes';
import type { PresetSpec } from '../spec';

/** Shops, storefronts and commerce platforms. */
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
} satisfies Record<string, PresetSpec>;
