import { CATALOG, RETRY_SCHEDULE_LIMITS } from '@relay/targets';

/** Spec "Limits": custom headers per webhook destination. */
const MAX_CUSTOM_HEADERS = 25;
import { bool, dateTime, int, list, nullable, object, oneOfValues, ref, str } from './kit';
import type { Schema } from './kit';

/*
 * Targets (spec "Outputs"; docs/targets-webhook.md, docs/targets-chat.md). A kind's `config` is
 * checked by the kind itself (libs/targets), which names each field (`config.url`); the
 * document describes each kind's config as the API shows it, with every secret masked.
 */

const KINDS = CATALOG.entries.map((e) => e.kind);
const REDACTED = { type: 'string', const: '[redacted]' };
const retrySchedule = nullable(
  list(int({ minimum: 0, maximum: RETRY_SCHEDULE_LIMITS.maxDelayMs }), {
    maxItems: RETRY_SCHEDULE_LIMITS.maxRetries,
    description: 'delays between attempts in ms; `[]` no retries; null the kind’s default (docs/delivery.md)',
  }),
);

const webhookView = object(
  {
    url: str(),
    enforce_https: bool(),
    auth: {
      oneOf: [
        object({ type: { type: 'string', const: 'none' } }, ['type']),
        object({ type: { type: 'string', const: 'bearer' }, token: REDACTED }, ['type', 'token']),
        object({ type: { type: 'string', const: 'api_key' }, header: str(), key: REDACTED }, ['type', 'header', 'key']),
        object({ type: { type: 'string', const: 'basic' }, username: str(), password: REDACTED }, ['type', 'username', 'password']),
      ],
    },
    custom_headers: list(object({ name: str(), value: str({ description: '`[redacted]` when sensitive' }), sensitive: bool() }, ['name', 'value', 'sensitive'])),
    forward_headers: {
      oneOf: [object({ mode: oneOfValues(['all', 'none']) }, ['mode']), object({ mode: { type: 'string', const: 'list' }, names: list(str()) }, ['mode', 'names'])],
    },
    signing: nullable(object({ standard_webhooks: { const: true }, secret: REDACTED }, ['standard_webhooks', 'secret'])),
  },
  ['url', 'enforce_https', 'auth', 'custom_headers', 'forward_headers', 'signing'],
  { description: 'kind `webhook` (docs/targets-webhook.md)' },
);

const chatUrl = str({ description: 'host and ids, the token masked: `…/****`' });
const embedView = object({ url: chatUrl, name: str(), template: str(), tts: bool() }, ['url', 'name'], { description: 'kind `embed_chat` (docs/targets-chat.md)' });
const blockView = object({ url: chatUrl, name: str(), template: str(), markup: bool() }, ['url', 'name', 'markup'], { description: 'kind `block_chat` (docs/targets-chat.md)' });

/*
 * What a create sends as `config`, per kind. The kind's own validator checks the rest (URL
 * forms, header rules, templates, secret formats) and names each problem; these schemas state
 * the fields and their types, as loosely as the validators read them (an object the validator
 * reads only some keys of — `auth`, `forward_headers` — keeps unknown keys allowed).
 */
const webhookInput = object(
  {
    url: str({ description: 'http(s) URL; https only while enforce_https is on' }),
    enforce_https: bool({ description: 'default true' }),
    auth: {
      type: 'object',
      description: 'outbound authentication: `{ "type": "none" }` (default), `bearer` with `token`, `api_key` with `header` and `key`, `basic` with `username` and `password`',
      properties: { type: oneOfValues(['none', 'bearer', 'api_key', 'basic']), token: str(), header: str(), key: str(), username: str(), password: str() },
      required: ['type'],
    },
    custom_headers: list(object({ name: str(), value: str({ description: 'may use template variables, e.g. `{{uuid}}`' }), sensitive: bool({ description: 'sealed and shown as `[redacted]`; credential-like headers always are' }) }, ['name', 'value']), { maxItems: MAX_CUSTOM_HEADERS }),
    forward_headers: { type: 'object', description: '`{ "mode": "none" }` (default), `all`, or `list` with `names`', properties: { mode: oneOfValues(['all', 'none', 'list']), names: list(str()) }, required: ['mode'] },
    signing: nullable(object({ standard_webhooks: { const: true }, secret: str({ description: '`whsec_` + base64' }) }, ['standard_webhooks', 'secret'])),
  },
  ['url'],
  { description: 'kind `webhook` (docs/targets-webhook.md)' },
);
const chatInput = (own: Record<string, Schema>, description: string): Schema =>
  object({ url: str({ description: 'the platform webhook URL (a secret: stored sealed)' }), name: str({ description: '1–100 characters' }), template: nullable(str()), ...own }, ['url', 'name'], { description });
/** `config` is checked against its kind's schema. */
const configOfKind = (kind: string, schema: string): Schema => ({ if: { properties: { kind: { const: kind } }, required: ['kind'] }, then: { properties: { config: ref(schema) } } });

const readOnlyIn: Record<string, Schema> = Object.fromEntries(
  ['id', 'account_id', 'endpoint_id', 'flagged', 'default_retry_schedule_ms', 'created_at', 'updated_at'].map((f) => [f, { readOnly: true, description: 'read-only: refused in a request' }]),
);
const name = str({ minLength: 1, maxLength: 200, description: 'trimmed' });

export const targetSchemas: Record<string, Schema> = {
  TargetCreate: object(
    {
      kind: oneOfValues(KINDS),
      name,
      enabled: bool({ description: 'default true' }),
      config: { type: 'object', description: "the kind's settings (WebhookConfigInput, EmbedChatConfigInput, BlockChatConfigInput by `kind`); each problem is named `config.<field>`" },
      retry_schedule_ms: retrySchedule,
      ...readOnlyIn,
    },
    ['kind', 'name', 'config'],
    { allOf: [configOfKind('webhook', 'WebhookConfigInput'), configOfKind('embed_chat', 'EmbedChatConfigInput'), configOfKind('block_chat', 'BlockChatConfigInput')] },
  ),
  TargetPatch: object(
    {
      name,
      enabled: bool(),
      retry_schedule_ms: retrySchedule,
      kind: { description: 'cannot be changed: a new kind is a new target' },
      config: { description: 'cannot be changed: a new config is a new target' },
      ...readOnlyIn,
    },
    [],
  ),
  Target: object(
    {
      id: str({ description: '`tg_…`' }),
      account_id: str(),
      endpoint_id: str(),
      kind: oneOfValues(KINDS),
      name: str(),
      enabled: bool(),
      config: { oneOf: [ref('WebhookConfigView'), ref('EmbedChatConfigView'), ref('BlockChatConfigView')] },
      flagged: nullable(object({ reason: str(), at: dateTime() }, ['reason', 'at'], { description: 'set when deliveries showed the destination is gone (docs/delivery.md "Flagged targets")' })),
      retry_schedule_ms: retrySchedule,
      default_retry_schedule_ms: nullable(list(int())),
      created_at: dateTime(),
      updated_at: dateTime(),
    },
    ['id', 'account_id', 'endpoint_id', 'kind', 'name', 'enabled', 'config', 'flagged', 'retry_schedule_ms', 'default_retry_schedule_ms', 'created_at', 'updated_at'],
  ),
  TargetList: object({ data: list(ref('Target')) }, ['data']),
  WebhookConfigInput: webhookInput,
  EmbedChatConfigInput: chatInput({ tts: nullable(bool({ description: 'used when the payload has no boolean `tts`' })) }, 'kind `embed_chat` (docs/targets-chat.md)'),
  BlockChatConfigInput: chatInput({ markup: nullable(bool({ description: "the chat service's own markup; default true" })) }, 'kind `block_chat` (docs/targets-chat.md)'),
  WebhookConfigView: webhookView,
  EmbedChatConfigView: embedView,
  BlockChatConfigView: blockView,
};
