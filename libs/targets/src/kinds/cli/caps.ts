import { CLI_BACKLOG_MAX_AGE_MS } from '@relay/contracts';

/*
 * The CLI session kind's caps (docs/cli.md "Caps"). A session is a
 * developer's laptop behind one WebSocket: these keep what one session, one endpoint and one
 * message can hold on the deliverer, the broker and the management API bounded.
 */

/** live `relay listen` sessions of one endpoint at once, over every management API instance */
export const MAX_SESSIONS_PER_ENDPOINT = 5;

/** deliveries one session holds unanswered at once (the `in_flight` setting's default and ceiling) */
export const DEFAULT_IN_FLIGHT = 10;
export const MAX_IN_FLIGHT = 50;

/**
 * The largest body a session is sent (bytes, before base64). A larger delivery is a permanent
 * failure of that attempt (PayloadError): the next event may be small.
 */
export const MAX_FORWARD_BODY_BYTES = 1_048_576;

/** the largest frame the server takes from a CLI (an ack): the local answer's body is cut far below it */
export const MAX_ACK_FRAME_BYTES = 65_536;

/** how much of the local server's answer body the CLI reports (the activity log keeps less) */
export const LOCAL_ANSWER_BODY_BYTES = 2_048;

/** how long the CLI waits for the local server */
export const LOCAL_TIMEOUT_MS = 10_000;

/**
 * How long the deliverer waits for a session's answer; past it the attempt is retried. It is
 * also the forward's time to live in a session's queue, so a forward nobody took in time is
 * dropped by the broker rather than sent after the deliverer stopped waiting.
 */
export const CLI_ATTEMPT_TIMEOUT_MS = LOCAL_TIMEOUT_MS + 5_000;

/** a session's entry in the per-endpoint count lives this long unless renewed (an instance that died frees its slots) */
export const SESSION_LEASE_MS = 30_000;
/** how often a live session renews its lease and pings its CLI */
export const SESSION_HEARTBEAT_MS = 10_000;

/** forwards waiting in one session's queue beyond its in-flight ones; past it the oldest is dropped (its deliverer times out and retries) */
export const MAX_WAITING_PER_SESSION = 1_000;

/** the backlog's bounds and the mirror's share (said by the CLI too, so kept in @relay/contracts) */
export {
  CLI_BACKLOG_MAX_AGE_MS as BACKLOG_MAX_AGE_MS,
  CLI_BACKLOG_MAX_DELIVERIES as BACKLOG_MAX_DELIVERIES,
  CLI_MIRROR_MAX_PERCENT as MIRROR_MAX_PERCENT,
  CLI_MIRROR_MIN_PERCENT as MIRROR_MIN_PERCENT,
} from '@relay/contracts';
/** an abandoned backlog queue is deleted this long after its last use, when all it held has expired */
export const BACKLOG_QUEUE_EXPIRES_MS = CLI_BACKLOG_MAX_AGE_MS + 3_600_000;
/**
 * Entries a session's drain holds at once to restore acceptance order (docs/cli.md "The
 * backlog"), and the bytes they may take: the deliverer attempts deliveries concurrently, so
 * one found without a session may be appended a few places after a later one.
 */
export const BACKLOG_DRAIN_WINDOW = 64;
export const BACKLOG_DRAIN_WINDOW_BYTES = 8 * 1_048_576;
