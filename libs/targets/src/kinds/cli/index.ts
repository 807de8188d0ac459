// The CLI session kind: deliveries handed to `relay listen` sessions (docs/cli.md).
export { drainedAttempt } from './backlog';
export { classifyCliOutcome, NO_SESSION } from './classify';
export type { CliNoAnswer } from './classify';
export { cliDescription } from './config';
export type { CliConfig } from './config';
export { cliForward } from './forward';
export { inMirrorSample, mirrorPercentOf } from './mirror';
export { CLI_BACKLOG, CLI_RETRY_SCHEDULE_MS, cliInfo, createCliKind } from './kind';
export type { CliKindDeps, CliLink } from './kind';
export {
  BACKLOG_MAX_AGE_MS,
  BACKLOG_MAX_DELIVERIES,
  BACKLOG_QUEUE_EXPIRES_MS,
  CLI_ATTEMPT_TIMEOUT_MS,
  DEFAULT_IN_FLIGHT,
  LOCAL_ANSWER_BODY_BYTES,
  LOCAL_TIMEOUT_MS,
  MAX_ACK_FRAME_BYTES,
  MAX_FORWARD_BODY_BYTES,
  MAX_IN_FLIGHT,
  MAX_SESSIONS_PER_ENDPOINT,
  MAX_WAITING_PER_SESSION,
  MIRROR_MAX_PERCENT,
  MIRROR_MIN_PERCENT,
  SESSION_HEARTBEAT_MS,
  SESSION_LEASE_MS,
} from './caps';
