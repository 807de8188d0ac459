import { bodySigned, PLAIN, prefixed, stripeScheme, tokenHeader } from '../recipes';
import type { PresetSpec } from '../spec';

/** Project management, files, docs, identity and collaboration tools. */
export const PRODUCTIVITY_PRESETS = {
  linear: {
    label: 'Linear',
    docs: 'https://linear.app/developers/webhooks#securing-webhooks',
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'text', signed: ['body'], encoding: 'hex' },
    signature: { header: 'linear-signature', format: PLAIN },
    // The MAC covers no timestamp header, so the signed body's webhookTimestamp is checked too.
    timestamp: {
      header: 'linear-timestamp',
      bodyField: 'webhookTimestamp',
      unit: 'milliseconds',
      toleranceSeconds: 60,
    },
    id: { header: 'linear-delivery' },
    secret: { format: 'text', where: 'Linear → Settings → API → Webhooks → webhook → Signing secret' },
    oracle: { kind: 'documented' },
  },
  asana: bodySigned(
    'Asana',
    'https://developers.asana.com/docs/webhooks-guide#security',
    'x-hook-signature',
    'sha256',
    'hex',
    'The X-Hook-Secret Asana sent in the webhook handshake',
  ),
  trello: {
    label: 'Trello',
    docs: 'https://developer.atlassian.com/cloud/trello/guides/rest-api/webhooks/#webhook-signatures',
    // Body then the callback URL the webhook was registered with.
    scheme: {
      family: 'hmac',
      algorithm: 'sha1',
      key: 'text',
      signed: ['body', 'url'],
      encoding: 'base64',
      urlPortVariants: true,
    },
    signature: { header: 'x-trello-webhook', format: PLAIN },
    secret: { format: 'text', where: 'trello.com/power-ups/admin → Power-Up → API key → Secret' },
    oracle: { kind: 'documented' },
  },
  notion: bodySigned(
    'Notion',
    'https://developers.notion.com/reference/webhooks#step-3-validating-event-payloads-recommended',
    'x-notion-signature',
    'sha256',
    'hex',
    'The verification_token Notion sent when the subscription was verified',
    { prefix: 'sha256=', id: { bodyPath: 'id' } },
  ),
  airtable: {
    label: 'Airtable',
    docs: 'https://airtable.com/developers/web/api/webhooks-overview#webhook-notification-delivery',
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'base64', signed: ['body'], encoding: 'hex' },
    signature: { header: 'x-airtable-content-mac', format: prefixed('hmac-sha256=') },
    secret: { format: 'base64', where: 'The macSecretBase64 returned when the webhook was created' },
    oracle: { kind: 'documented' },
  },
  clickup: bodySigned(
    'ClickUp',
    'https://developer.clickup.com/docs/webhooksignature',
    'x-signature',
    'sha256',
    'hex',
    'The webhook.secret returned when the webhook was created',
  ),
  todoist: bodySigned(
    'Todoist',
    'https://developer.todoist.com/sync/v9/#webhooks',
    'x-todoist-hmac-sha256',
    'sha256',
    'base64',
    'App Management Console → app → Client secret',
    { id: { header: 'x-todoist-delivery-id' } },
  ),
  dropbox: bodySigned(
    'Dropbox',
    'https://www.dropbox.com/developers/reference/webhooks#notifications',
    'x-dropbox-signature',
    'sha256',
    'hex',
    'App Console → app → Settings → App secret',
    { handshake: 'dropbox_challenge' },
  ),
  box: {
    label: 'Box',
    docs: 'https://developer.box.com/guides/webhooks/v2/signatures-v2/',
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'text', signed: ['body', 'timestamp'], encoding: 'base64' },
    signature: { header: 'box-signature-primary', format: PLAIN },
    // Box rejects deliveries older than ten minutes in its own SDKs.
    timestamp: { header: 'box-delivery-timestamp', unit: 'iso8601', toleranceSeconds: 600 },
    id: { header: 'box-delivery-id' },
    extraCredentialHeaders: ['box-signature-secondary'],
    secret: { format: 'text', where: 'Developer Console → app → Webhooks → Manage signature keys → Primary key' },
    oracle: { kind: 'documented' },
  },
  workos: stripeScheme(
    'WorkOS',
    'https://workos.com/docs/events/data-syncing/webhooks/3-process-the-events/b-validate-the-requests-manually',
    'workos-signature',
    'Dashboard → Webhooks → endpoint → Secret',
    {
      // WorkOS signs milliseconds; its SDKs allow 180 s.
      unit: 'milliseconds',
      toleranceSeconds: 180,
      id: { bodyPath: 'id' },
    },
  ),
  auth0: tokenHeader(
    'Auth0 log streams',
    'https://auth0.com/docs/customize/log-streams/custom-log-streams',
    'authorization',
    'Monitoring → Streams → custom webhook → Authorization Token (you choose it)',
  ),
  microsoft_graph: {
    label: 'Microsoft Graph change notifications',
    docs: 'https://learn.microsoft.com/en-us/graph/change-notifications-delivery-webhooks',
    // Graph signs nothing: each notification carries the subscription's clientState.
    scheme: { family: 'token', bodyArrayField: { array: 'value', field: 'clientState' } },
    secret: { format: 'text', where: 'The clientState you set when creating the subscription (POST /subscriptions)' },
    oracle: { kind: 'documented' },
    handshake: 'graph_validation_token',
  },
} satisfies Record<string, PresetSpec>;
