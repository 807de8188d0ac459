/*
 * CLI sessions (docs/cli.md): `relay listen` holds one WebSocket to a
 * management API instance, and the outputs deliverer reaches the instance holding a target's
 * sessions over the broker. These are the names and the two messages of that exchange, and the
 * frames of the WebSocket — one place, shared by the deliverer, the management API and the CLI.
 */

/** the forward of one delivery attempt to the sessions listening for its target */
export const CLI_FORWARD_V1 = 'relay.cli.forward.v1';
/** what a session answers for it: the local server's answer, or why there is none */
export const CLI_ANSWER_V1 = 'relay.cli.answer.v1';

/**
 * The direct exchange the outputs deliverer publishes forwards on, routing key = the target id.
 * Every session binds an exclusive queue of its own to it with its target's id, so a forward
 * reaches every instance that holds a session of that target; with no session bound, the
 * mandatory publish comes back unroutable at once.
 */
export function cliSessionsExchange(namespace: string): string {
  return `${namespace}.cli`;
}

/**
 * The bounds of a CLI session target's backlog (docs/cli.md "The backlog"), here because the
 * CLI says them too: the deliveries kept while no session listens, and for how long. A laptop
 * asleep overnight is what they are for. One past the count is retried on the schedule; one
 * kept longer is recorded failed.
 */
export const CLI_BACKLOG_MAX_DELIVERIES = 10_000;
export const CLI_BACKLOG_MAX_AGE_MS = 24 * 3_600_000;
/** the share of an endpoint's events a mirror session receives, a whole percent (`relay listen --mirror`) */
export const CLI_MIRROR_MIN_PERCENT = 1;
export const CLI_MIRROR_MAX_PERCENT = 100;

/**
 * The durable queue that keeps a CLI session target's deliveries while no session listens
 * (docs/cli.md "The backlog"): the deliverer appends a delivery whose forward came back
 * unroutable, the next session drains it in order before it takes live forwards.
 */
export function cliBacklogQueue(namespace: string, targetId: string): string {
  return `${namespace}.cli.backlog.${targetId}`;
}

/** Whether a queue (a dead letter's `x-first-death-queue`) is a CLI session target's backlog. */
export function isCliBacklogQueue(queue: string): boolean {
  return queue.includes('.cli.backlog.');
}

/** One attempt of one delivery, as the CLI forwards it to its local URL (always POST). */
export interface CliForwardV1 {
  type: typeof CLI_FORWARD_V1;
  event_id: string;
  delivery_id: string;
  attempt: number;
  target_id: string;
  endpoint_id: string;
  /** the request's headers: the sender's forwardable ones, Content-Type and Relay's tracking headers */
  headers: Record<string, string>;
  body_base64: string;
}

/** How the local server answered, as the CLI saw it; or the network failure it met. */
export type CliLocalOutcome =
  | { status: number; duration_ms: number; headers: Record<string, string>; body: string }
  | { error: { code: string; message: string }; duration_ms: number };

/** A session's answer to one forward; `gone`: the session ended before the CLI answered. */
export interface CliAnswerV1 {
  type: typeof CLI_ANSWER_V1;
  outcome: CliLocalOutcome | { gone: string };
}

/** WebSocket frames, server → CLI. `id` names the forward in the CLI's ack. */
export type CliServerFrame =
  | {
      type: 'hello';
      session_id: string;
      target_id: string;
      endpoint_id: string;
      in_flight: number;
      max_message_bytes: number;
    }
  /** sent once after hello: deliveries kept while no session listened, drained (in order) before live ones */
  | { type: 'backlog'; count: number }
  | { type: 'delivery'; id: string; forward: CliForwardV1 };

/** WebSocket frames, CLI → server: the outcome of one delivery frame. */
export interface CliAckFrame {
  type: 'ack';
  id: string;
  outcome: CliLocalOutcome;
}
