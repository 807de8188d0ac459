import type { PresetSpec } from '../spec';
import { CERTIFICATE_PRESETS } from './certificate';
import { COMMERCE_PRESETS } from './commerce';
import { MESSAGING_PRESETS } from './messaging';
import { PAYMENT_PRESETS } from './payments';
import { PRODUCTIVITY_PRESETS } from './productivity';
import { SOURCE_CONTROL_PRESETS } from './source-control';
import { STANDARD_PRESETS } from './standard';

/**
 * Every named preset. Adding a provider is one entry in a category file (see
 * docs/adding-an-hmac-preset.md); names are stable API values and never change.
 */
const ALL = {
  ...SOURCE_CONTROL_PRESETS,
  ...PAYMENT_PRESETS,
  ...MESSAGING_PRESETS,
  ...COMMERCE_PRESETS,
  ...PRODUCTIVITY_PRESETS,
  ...STANDARD_PRESETS,
  ...CERTIFICATE_PRESETS,
};

export type HmacPresetName = keyof typeof ALL;
/** Presets verified with a certificate fetched at run time (the gateway's certificate step). */
export type CertificatePresetName = keyof typeof CERTIFICATE_PRESETS;

export const PRESET_SPECS: { readonly [P in HmacPresetName]: PresetSpec } = ALL;

/** The first presets Relay named, in their original order: listings and messages keep it. */
const FIRST: readonly HmacPresetName[] = [
  'github',
  'stripe',
  'slack',
  'shopify',
  'twilio',
  'standard_webhooks',
  'svix',
  'zoom',
  'paddle',
  'square',
  'linear',
  'gitlab',
  'discord',
];

/** Preset names: the first ones, then the rest alphabetically. */
export const PRESET_NAMES: readonly HmacPresetName[] = [
  ...FIRST,
  ...(Object.keys(ALL) as HmacPresetName[]).filter((n) => !FIRST.includes(n)).sort(),
];
