import { PRESET_NAMES, PRESET_SPECS } from '../../../../../libs/endpoints/src/auth/presets/catalog';
import type { HmacPresetName } from '../../../../../libs/endpoints/src/auth/presets/catalog';

/** The preset picker's data, from the same catalog the gateway verifies with. */
export interface PresetChoice {
  name: string;
  label: string;
}

const ALL: PresetChoice[] = [
  ...PRESET_NAMES.map((name) => ({ name, label: `${PRESET_SPECS[name].label} (${name})` })),
  { name: 'custom', label: 'Custom scheme (custom)' },
];

/** A preset by its provider's name beside its code: "Standard Webhooks (standard_webhooks)". */
export function presetLabel(name: string): string {
  return ALL.find((c) => c.name === name)?.label ?? name;
}

/** Presets whose name or label contains the query (case-insensitive); the current one always stays. */
export function presetChoices(query: string, current: string): PresetChoice[] {
  const q = query.trim().toLowerCase();
  if (q === '') return ALL;
  return ALL.filter((c) => c.name === current || c.label.toLowerCase().includes(q));
}

/** What the provider sends and where to find the secret; null for custom. */
export function presetSummary(name: string): { sends: string; where: string; docs: string } | null {
  if (!(name in PRESET_SPECS)) return null;
  const spec = PRESET_SPECS[name as HmacPresetName];
  const parts = [
    spec.signature
      ? `${spec.label} signs requests in ${spec.signature.header}`
      : spec.scheme.family === 'certificate'
        ? `${spec.label} signs the body with a certificate it publishes`
        : `${spec.label} puts a shared token in the body`,
  ];
  if (spec.timestamp?.header) parts.push(`with a timestamp in ${spec.timestamp.header}`);
  if (spec.id)
    parts.push(`and its delivery id in ${'header' in spec.id ? spec.id.header : `the body's ${spec.id.bodyPath}`}`);
  return { sends: `${parts.join(' ')}.`, where: spec.secret.where, docs: spec.docs };
}

/** Presets whose provider does Meta's GET hub.challenge handshake: they take a verify_token. */
export function takesVerifyToken(name: string): boolean {
  return name in PRESET_SPECS && PRESET_SPECS[name as HmacPresetName].handshake === 'meta_hub_challenge';
}
