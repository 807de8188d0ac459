import { list, oneOf, smtpVars, str } from '@relay/config';
import type { ConfigOf } from '@relay/config';
import { DELIVERY_CHANNELS } from '@relay/contracts';
import type { DeliveryChannel } from '@relay/contracts';
import { delivererConfigSpec } from './delivery/config';
import { GOOGLE_TOKEN_URL, SHEETS_API } from '@relay/targets';

/**
 * One program, three channels (docs/architecture.md "Deliverers"): `webhook` (webhook targets,
 * long schedules of 5 s … 12 h), `chat` (embed- and block-style chat targets, 1 s … 30 s) and
 * `outputs` (email and spreadsheet targets, through their own transports). Each channel is its
 * own deployment, queue, health port and scaler; only the defaults differ, so DELIVERY_CHANNEL is
 * read first and picks them. It has no default: which queue a process consumes is the one thing
 * a deployment must say.
 */
export const channelVar = {
  channel: oneOf(
    'DELIVERY_CHANNEL',
    'the delivery queue this process consumes: webhook (webhook targets), chat (chat targets) or outputs (email and spreadsheet targets)',
    DELIVERY_CHANNELS,
  ),
};

/** Each channel's health port unless HEALTH_PORT says otherwise: the ports of the deployments (compose, Kubernetes, scripts/start.sh). */
export const HEALTH_PORTS: Readonly<Record<DeliveryChannel, number>> = { webhook: 8091, chat: 8092, outputs: 8095 };

/** The outputs channel's transports; read by every channel (and ignored but on outputs), so all share one spec's names. */
export const outputsVars = {
  ...smtpVars,
  googleTokenUrl: str(
    'GOOGLE_TOKEN_URL',
    "where spreadsheet targets' token requests go (a private endpoint of Google's); the JWT audience stays Google's",
    { default: GOOGLE_TOKEN_URL },
  ),
  googleSheetsUrl: str('GOOGLE_SHEETS_URL', 'base of the Sheets API values methods, ending in /spreadsheets/', {
    default: SHEETS_API,
  }),
  googleCaFile: str(
    'GOOGLE_CA_FILE',
    'PEM file of extra trust anchors for GOOGLE_TOKEN_URL / GOOGLE_SHEETS_URL behind a private CA; empty = the system CAs',
    { default: '' },
  ),
};

/**
 * Where a deliverer connects for a host name (docs/targets-chat.md "Host routes"), e.g. a chat
 * platform through a private egress endpoint. TLS is still verified for the real host name
 * (add a private CA with NODE_EXTRA_CA_CERTS) and each address must pass the SSRF guard.
 */
export const routeVars = {
  hostRoutes: list(
    'HOST_ROUTES',
    'hosts to connect to at another address (chat platforms through a private egress, say), host=address:port comma-separated (e.g. api.telegram.org=10.0.0.5:443); the URL, Host and TLS name stay the real host; each address must pass the SSRF guard (SSRF_ALLOW_CIDRS); empty = DNS',
    { default: [] },
  ),
};

export function configSpecFor(channel: DeliveryChannel) {
  return {
    ...channelVar,
    ...delivererConfigSpec({ healthPort: HEALTH_PORTS[channel], channel }),
    ...outputsVars,
    ...routeVars,
  };
}

/** The names and meanings every deploy file is checked against (defaults: the webhook channel's). */
export const configSpec = configSpecFor('webhook');

export type Config = ConfigOf<ReturnType<typeof configSpecFor>>;
