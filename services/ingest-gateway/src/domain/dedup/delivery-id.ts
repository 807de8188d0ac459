import { DEFAULT_DEDUP_WINDOW_SECONDS, HMAC_PRESET_INFO } from '@relay/endpoints';
import type { InboundAuthSetting, PresetDeliveryId } from '@relay/endpoints';

/** A provider delivery id to deduplicate on, and for how long an accepted one answers for itself. */
export interface ProviderDedup {
  /** The claim key: where the id came from and the id (the store hashes it). */
  key: string;
  windowMs: number;
  /** Where the id was read, for the activity row: `x-github-delivery` or `body id`. */
  source: string;
}

/** An id is echoed into Redis keys and rows: 1–255 printable ASCII characters, else no dedup. */
const ID_TEXT = /^[\x20-\x7e]{1,255}$/;

/**
 * The provider's own delivery id, when deduplication is on for this endpoint (by
 * default for presets whose provider sends one; opt-in for custom schemes). Called only after
 * the signature passed, so a forger cannot claim an id. Null: no id, or dedup off.
 */
export function providerDedupOf(
  setting: InboundAuthSetting,
  headers: Record<string, string | string[] | undefined>,
  data: unknown,
): ProviderDedup | null {
  if (setting.type !== 'HMAC') return null;
  let where: PresetDeliveryId | undefined;
  let enabled: boolean;
  if (setting.preset === 'custom') {
    const { id_header: header, id_json_path: bodyPath } = setting.custom;
    where = header !== undefined ? { header: header.toLowerCase() } : bodyPath !== undefined ? { bodyPath } : undefined;
    enabled = setting.dedup?.enabled ?? false;
  } else {
    where = HMAC_PRESET_INFO[setting.preset].spec.id;
    enabled = setting.dedup?.enabled ?? where !== undefined;
  }
  if (!enabled || where === undefined) return null;
  const id = 'header' in where ? headerText(headers[where.header]) : bodyText(data, where.bodyPath);
  if (id === undefined || !ID_TEXT.test(id)) return null;
  const source = 'header' in where ? where.header : `body ${where.bodyPath}`;
  return {
    key: `\n${source}\n${id}`,
    windowMs: (setting.dedup?.window_seconds ?? DEFAULT_DEDUP_WINDOW_SECONDS) * 1000,
    source,
  };
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A string or number at a dotted path of the parsed payload; anything else is no id. */
function bodyText(data: unknown, path: string): string | undefined {
  let node: unknown = data;
  for (const name of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[name];
  }
  if (typeof node === 'string') return node;
  return typeof node === 'number' && Number.isFinite(node) ? String(node) : undefined;
}
