import type { CliForwardV1, CliLocalOutcome } from '@relay/contracts';
import { describedConfig } from '../../describe/kind-config';
import type { KindInfo, SecretSealer, TransportKind } from '../../kind';
import { classifyCliOutcome } from './classify';
import type { CliNoAnswer } from './classify';
import { cliDescription } from './config';
import type { CliConfig } from './config';
import { cliForward } from './forward';
import { CLI_ATTEMPT_TIMEOUT_MS } from './caps';

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

/**
 * How the deliverer reaches the sessions of a target (the broker; @relay/broker
 * `CliForwarder`): the first session's answer, or why there is none.
 */
export interface CliLink {
  forward(forward: CliForwardV1, timeoutMs: number): Promise<CliLocalOutcome | CliNoAnswer>;
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
      return classifyCliOutcome(await deps.cli.forward(forward, CLI_ATTEMPT_TIMEOUT_MS));
    },
  };
}
