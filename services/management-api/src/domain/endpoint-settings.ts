import type { EndpointRecord } from '@relay/store';

/** Methods an endpoint may accept (spec "Endpoint / method"). */
export { ENDPOINT_METHODS as METHODS } from '@relay/endpoints';

/**
 * The settings a client may write, in the shape they are stored in (`EndpointRecord`). Secret
 * values inside `inbound_auth` and `captcha` are plaintext here, between validation and sealing.
 */
export type EndpointSettings = Omit<EndpointRecord, 'id' | 'account_id' | 'revision' | 'created_at' | 'updated_at'>;

export type SettingName = keyof EndpointSettings;

/** Defaults of a new endpoint; `name` has none. */
export function settingDefaults(): Omit<EndpointSettings, 'name'> {
  return {
    methods: ['POST'],
    payload_format: 'json',
    query_param_name: null,
    query_param_required: true,
    enabled: true,
    paused: false,
    inbound_auth: { type: 'NONE' },
    required_headers: [],
    body_filters: [],
    field_rules: [],
    contracts: null,
    ip_access: { allow: [], deny: [] },
    captcha: null,
    rate_limit_per_minute: null,
    maintenance_windows: [],
  };
}

export const SETTING_NAMES: readonly SettingName[] = ['name', ...(Object.keys(settingDefaults()) as SettingName[])];

/** Fields of the response a client may send back by mistake (GET → edit → PATCH); refused by name. */
export const READ_ONLY_FIELDS = new Set([
  'id',
  'account_id',
  'ingest_url',
  'availability',
  'revision',
  'created_at',
  'updated_at',
]);

/**
 * The writable settings of a stored endpoint, with the store defaults filled in for fields a
 * document written before they existed lacks (`.lean()` reads apply no schema defaults).
 */
export function settingsOf(record: Partial<EndpointSettings>): EndpointSettings {
  const d = settingDefaults();
  return {
    name: record.name ?? '',
    methods: record.methods ?? d.methods,
    payload_format: record.payload_format ?? d.payload_format,
    query_param_name: record.query_param_name ?? null,
    query_param_required: record.query_param_required ?? true,
    enabled: record.enabled ?? true,
    paused: record.paused ?? false,
    inbound_auth: record.inbound_auth ?? d.inbound_auth,
    required_headers: record.required_headers ?? [],
    body_filters: record.body_filters ?? [],
    field_rules: record.field_rules ?? [],
    contracts: record.contracts ?? null,
    ip_access: record.ip_access ?? d.ip_access,
    captcha: record.captcha ?? null,
    rate_limit_per_minute: record.rate_limit_per_minute ?? null,
    maintenance_windows: record.maintenance_windows ?? [],
  };
}
