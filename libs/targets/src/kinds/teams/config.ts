import type { CheckContext, KindDescription } from '../../describe/field';
import { chatCommonFields, maskChatUrl } from '../chat-config';

/** A Microsoft Teams target's stored configuration (docs/targets-chat.md "Microsoft Teams"). */
export interface TeamsConfig {
  /** the Workflows (or legacy Incoming Webhook) URL; its `sig` is the credential, so it is stored sealed */
  url: string;
  /** the target's name in Relay; not sent to Teams */
  name: string;
  template?: string;
  /** `adaptive_card` (what Workflows post) or `text` (`{"text": …}`, for a flow or a legacy webhook that reads it) */
  format: TeamsFormat;
}

export const TEAMS_FORMATS = ['adaptive_card', 'text'] as const;
export type TeamsFormat = (typeof TEAMS_FORMATS)[number];

/**
 * Where Teams webhook URLs live: Workflows' "When a Teams webhook request is received" trigger
 * on Power Automate (`*.environment.api.powerplatform.com`) or Logic Apps
 * (`prod-NN.<region>.logic.azure.com`), and the retiring Office 365 connector
 * (`<tenant>.webhook.office.com/webhookb2/…`).
 */
export const HOST_SUFFIXES = ['.environment.api.powerplatform.com', '.logic.azure.com', '.webhook.office.com'] as const;
const FORM =
  'the HTTP POST URL of a Workflows “When a Teams webhook request is received” trigger (https://….logic.azure.com/workflows/… or https://….environment.api.powerplatform.com/…), or a legacy https://….webhook.office.com/webhookb2/… URL';
const MAX_URL = 2048;

/** Messages never echo the URL: its `sig` (or the legacy path) is what lets anyone post. */
function checkUrl(value: string, ctx: CheckContext): string | undefined {
  const fail = (message: string): undefined => void ctx.fail(message);
  if (value.trim() === '') return fail('url is required');
  if (value.length > MAX_URL) return fail(`url is longer than ${MAX_URL} characters`);
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return fail(`url must be ${FORM}`);
  }
  const host = u.hostname.toLowerCase();
  if (u.protocol !== 'https:' || !HOST_SUFFIXES.some((s) => host.endsWith(s) && host.length > s.length))
    return fail(`url must be ${FORM}`);
  // the URLs Teams hands out name :443; any other port is not Teams
  if (u.port !== '' && u.port !== '443') return fail('url must not name a port other than 443');
  if (u.username !== '' || u.password !== '' || u.hash !== '')
    return fail('url must not contain credentials or a fragment');
  if (host.endsWith('.webhook.office.com')) {
    if (!u.pathname.startsWith('/webhookb2/') || u.pathname.length <= '/webhookb2/'.length)
      return fail('a webhook.office.com url must have the form https://<tenant>.webhook.office.com/webhookb2/…');
  } else {
    if (!/\/workflows\/[^/]+\/triggers\/[^/]+\/paths\/invoke\/?$/.test(u.pathname))
      return fail('a Workflows url must end in /workflows/<id>/triggers/<trigger>/paths/invoke');
    if (!u.searchParams.get('sig'))
      return fail('a Workflows url must keep its query string, sig included: copy the whole HTTP POST URL');
  }
  u.port = '';
  return u.toString();
}

/** Host and path of a Workflows URL (the workflow's id is no secret), every query value but the API version masked; a legacy URL keeps only its host. */
const maskUrl = maskChatUrl((u) => {
  if (u.hostname.endsWith('.webhook.office.com')) return `https://${u.hostname}/webhookb2/****`;
  const query = [...u.searchParams.keys()]
    .map((k) => `${k}=${k === 'api-version' ? u.searchParams.get(k) : '****'}`)
    .join('&');
  return `https://${u.hostname}${u.pathname}${query ? `?${query}` : ''}`;
});

/** Microsoft Teams through a Workflows webhook (docs/targets-chat.md "Microsoft Teams"). */
export const teamsDescription: KindDescription = {
  label: 'Microsoft Teams (Workflows webhook)',
  help: 'A Teams channel or chat through a Workflows “When a Teams webhook request is received” flow; docs/targets-chat.md.',
  fields: {
    ...chatCommonFields({
      label: 'Workflows webhook URL',
      example: 'https://prod-00.westeurope.logic.azure.com:443/workflows/…/triggers/manual/paths/invoke?…&sig=…',
      help: 'the whole HTTP POST URL of the trigger; a secret: stored sealed, shown masked',
      check: checkUrl,
      mask: maskUrl,
    }),
    format: {
      type: 'enum',
      label: 'Message format',
      default: 'adaptive_card',
      help: 'an Adaptive Card (what the Workflows templates post), or {"text": …} for a flow or legacy webhook that reads text',
      values: [
        { value: 'adaptive_card', label: 'Adaptive Card' },
        { value: 'text', label: 'Text' },
      ],
    },
  },
};
