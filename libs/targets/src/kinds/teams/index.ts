import type { DeliveryMessageV1 } from '@relay/contracts';
import { describedConfig } from '../../describe/kind-config';
import type { KindInfo, OutboundRequest, SecretSealer, TargetKind } from '../../kind';
import { openChatUrl } from '../chat-config';
import { readPayload } from '../template';
import { classifyTeams } from './classify';
import { teamsDescription } from './config';
import type { TeamsConfig } from './config';
import { teamsMessage } from './message';

export type { TeamsConfig } from './config';
export { classifyTeams } from './classify';
export { MAX_BODY_BYTES as TEAMS_MAX_BODY_BYTES } from './message';

/**
 * The chat kinds' fast schedule (1 s … 30 s). Teams throttles past four requests a second and
 * asks for exponential backoff; a longer Retry-After wins.
 */
export const TEAMS_RETRY_SCHEDULE_MS: readonly number[] = [1_000, 2_000, 5_000, 15_000, 30_000];

export const teamsInfo: KindInfo = {
  kind: 'teams',
  channel: 'chat',
  defaultRetryScheduleMs: TEAMS_RETRY_SCHEDULE_MS,
  description: teamsDescription,
  defaultLimits: { rate: 4, per: 'second', max_in_flight: null },
  resendable: true,
};

function buildRequest(config: TeamsConfig, d: DeliveryMessageV1, secrets: SecretSealer): OutboundRequest {
  return {
    url: openChatUrl(config.url, secrets),
    headers: { 'content-type': 'application/json', 'user-agent': 'Relay-Chat/1' },
    body: Buffer.from(JSON.stringify(teamsMessage(config, readPayload(d.payload))), 'utf8'),
  };
}

/** Microsoft Teams through a Workflows webhook, on the chat channel. Its URL is stored sealed. */
export function createTeamsKind(deps: { secrets: SecretSealer }): TargetKind<TeamsConfig> {
  return {
    ...teamsInfo,
    ...describedConfig<TeamsConfig>(teamsDescription, deps.secrets),
    buildRequest: (config, d) => buildRequest(config, d, deps.secrets),
    classify: classifyTeams,
  };
}
