import type { CliForwardV1, CliLocalOutcome, DeliveryMessageV1 } from '@relay/contracts';
import { describedConfig } from '../../describe/kind-config';
import type { AttemptResult, KindInfo, SecretSealer, TransportKind } from '../../kind';
import { classifyCliOutcome, NO_SESSION } from './classify';
import type { CliNoAnswer } from './classify';
import { cliDescription } from './config';
import type { CliConfig } from './config';
import { cliForward } from './forward';
import {
  BACKLOG_DRAIN_WINDOW,
  BACKLOG_DRAIN_WINDOW_BYTES,
  BACKLOG_MAX_AGE_MS,
  BACKLOG_MAX_DELIVERIES,
  BACKLOG_QUEUE_EXPIRES_MS,
  CLI_ATTEMPT_TIMEOUT_MS,
} from './caps';

/**
 * Delays between attempts, in ms: a developer restarting `relay listen` or their local server
 * is back within seconds to minutes, and after about seven minutes the event is recorded as
 * failed (resend it with `relay resend`). Every delay is already a tier of the outputs channel
 * (email's and spreadsheet's schedules), so this kind adds no retry queue.
 */
export const CLI_RETRY_SCHEDULE_MS: readonly number[] = [5_000, 10_000, 30_000, 60_000, 300_000];

/**
 * On the outputs channel (docs/cli.md "Which deliverer"): its deliverer already runs the kinds
 * whose attempt is not one POST, and a forward waits on a person's laptop as an SMTP relay's
 * answer does — not on the webhook or chat queues, whose workers must never wait on it.
 */
export const cliInfo: KindInfo = {
  kind: 'cli',
  channel: 'outputs',
  defaultRetryScheduleMs: CLI_RETRY_SCHEDULE_MS,
  description: cliDescription,
  resendable: false,
};

/** A CLI session target's backlog bounds, and the work queue an expired entry goes back to (docs/cli.md "The backlog"). */
export const CLI_BACKLOG = {
  maxDeliveries: BACKLOG_MAX_DELIVERIES,
  maxAgeMs: BACKLOG_MAX_AGE_MS,
  expiresMs: BACKLOG_QUEUE_EXPIRES_MS,
  channel: cliInfo.channel,
  drainWindow: BACKLOG_DRAIN_WINDOW,
  drainWindowBytes: BACKLOG_DRAIN_WINDOW_BYTES,
} as const;

/**
 * How the deliverer reaches the sessions of a target (the broker; @relay/broker
 * `CliForwarder`): the first session's answer, or why there is none.
 */
export interface CliLink {
  forward(forward: CliForwardV1, timeoutMs: number): Promise<CliLocalOutcome | CliNoAnswer>;
  /**
   * appends the delivery to the target's backlog for the next session; false when the backlog
   * refused it (full) or the broker did not confirm it
   */
  keep(delivery: DeliveryMessageV1): Promise<boolean>;
}

export interface CliKindDeps {
  secrets: SecretSealer;
  /** only the outputs deliverer has one; elsewhere the kind only validates and shows configs */
  cli?: CliLink;
}

/**
 * The CLI session target: each attempt is handed to the `relay listen`
 * sessions of the target, which forward it to their local URL and report the answer back; the
 * deliverer records, retries and dead-letters it as for any kind.
 */
export function createCliKind(deps: CliKindDeps): TransportKind<CliConfig> {
  return {
    ...cliInfo,
    ...describedConfig<CliConfig>(cliDescription, deps.secrets),
    deliver: async (_config, d) => {
      const forward = cliForward(d);
      if (!deps.cli) return { result: 'retry', status: null, error: 'this deliverer cannot reach CLI sessions' };
      const got = await deps.cli.forward(forward, CLI_ATTEMPT_TIMEOUT_MS);
      if (got === 'no_session' && (await keptInBacklog(deps.cli, d))) return KEPT;
      return classifyCliOutcome(got);
    },
  };
}

const KEPT: AttemptResult = {
  result: 'kept',
  status: null,
  error: `${NO_SESSION}; kept in its backlog for the next session`,
};

/**
 * With no session listening, the delivery waits in the target's backlog (docs/cli.md "The
 * backlog") as its next attempt; when the backlog is full it is retried on the schedule.
 */
function keptInBacklog(link: CliLink, d: DeliveryMessageV1): Promise<boolean> {
  return link.keep({ ...d, attempt: d.attempt + 1 });
}
