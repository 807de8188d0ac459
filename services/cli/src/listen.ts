import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import {
  CLI_BACKLOG_MAX_AGE_MS,
  CLI_BACKLOG_MAX_DELIVERIES,
  CLI_MIRROR_MAX_PERCENT,
  CLI_MIRROR_MIN_PERCENT,
} from '@relay/contracts';
import type { CliAckFrame, CliServerFrame } from '@relay/contracts';
import { ApiError } from './api';
import type { RelayApi } from './api';
import { forwardLocally } from './forward';

/** how long the CLI waits for the local server (the server waits a little longer for the ack) */
export const LOCAL_TIMEOUT_MS = 10_000;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 15_000;
/** the name of the CLI session target `relay listen` creates on an endpoint that has none */
export const CREATED_TARGET_NAME = 'relay listen';
/** the name of a mirror target `relay listen --mirror <percent>` creates */
export const mirrorTargetName = (percent: number): string => `relay listen --mirror ${percent}%`;

export interface ListenOptions {
  apiUrl: string;
  apiKey: string;
  endpointId: string;
  forward: URL;
  targetId?: string;
  /** a mirror session: this percent of the endpoint's events */
  mirrorPercent?: number;
  out: (line: string) => void;
  err: (line: string) => void;
}

/**
 * The endpoint's CLI session target: the one named, the only one of its sort (a mirror of that
 * percent, or a target that takes every event), or a new one (kind `cli`, default settings)
 * when the endpoint has none — said on stderr, since it stays after the session.
 */
export async function cliTargetOf(
  api: RelayApi,
  opts: Pick<ListenOptions, 'endpointId' | 'targetId' | 'mirrorPercent' | 'err'>,
): Promise<string> {
  const targets = (await api.listTargets(opts.endpointId)).filter((t) => t.kind === 'cli');
  if (opts.targetId) {
    if (!targets.some((t) => t.id === opts.targetId))
      throw new ApiError(404, 'target_not_found', `${opts.targetId} is not a CLI session target of ${opts.endpointId}`);
    return opts.targetId;
  }
  const percent = opts.mirrorPercent;
  const fitting = targets.filter((t) => (t.config as { mirror_percent?: number }).mirror_percent === percent);
  if (fitting.length === 1) return fitting[0]!.id;
  if (fitting.length > 1)
    throw new ApiError(
      409,
      'target_id_required',
      `${opts.endpointId} has several ${percent === undefined ? 'CLI session' : `${percent}% mirror`} targets (${fitting.map((t) => t.id).join(', ')}): name one with --target`,
    );
  const created = await api.createTarget(
    opts.endpointId,
    percent === undefined
      ? { kind: 'cli', name: CREATED_TARGET_NAME, config: {} }
      : { kind: 'cli', name: mirrorTargetName(percent), config: { mirror_percent: percent } },
  );
  opts.err(
    `Created ${percent === undefined ? 'CLI session' : `${percent}% mirror`} target ${created.id} on ${opts.endpointId}; events sent while no session listens are kept for the next one (up to ${CLI_BACKLOG_MAX_DELIVERIES.toLocaleString('en-US')} for ${CLI_BACKLOG_MAX_AGE_MS / 3_600_000} h), then recorded as failed (relay targets ${opts.endpointId}).`,
  );
  return created.id;
}

/**
 * `--mirror 10%` (or `10`): a whole percent from 1 to 100; null when it is not one.
 */
export function mirrorPercent(text: string): number | null {
  const m = /^\s*(\d{1,3})\s*%?\s*$/.exec(text);
  const n = m ? Number(m[1]) : NaN;
  return Number.isInteger(n) && n >= CLI_MIRROR_MIN_PERCENT && n <= CLI_MIRROR_MAX_PERCENT ? n : null;
}

/** What the CLI says, before anything else, about the deliveries kept while no session listened. */
export function backlogLine(count: number): string | null {
  if (count === 0) return null;
  const n = count.toLocaleString('en-US');
  return `${n} ${count === 1 ? 'event' : 'events'} kept while no session listened: delivering ${count === 1 ? 'it' : 'them'} first, one at a time, in the order accepted`;
}

/** One printed line per delivery: time, event id, status (or the local failure's code), latency, attempt. */
export function deliveryLine(at: Date, eventId: string, attempt: number, outcome: CliAckFrame['outcome']): string {
  const status = 'error' in outcome ? outcome.error.code : String(outcome.status);
  return `${at.toISOString()}  ${eventId}  ${status.padEnd(5)} ${String(outcome.duration_ms).padStart(6)} ms  attempt ${attempt}`;
}

/** A refused upgrade: the API's JSON error, as every route answers. */
function refusal(res: IncomingMessage): Promise<ApiError> {
  return new Promise((resolve) => {
    let text = '';
    res.on('data', (c: Buffer) => (text += c.toString('utf8').slice(0, 4096)));
    res.on('end', () => {
      let parsed: { code?: string; message?: string } = {};
      try {
        parsed = JSON.parse(text) as typeof parsed;
      } catch {
        // not JSON: the status alone
      }
      resolve(
        new ApiError(
          res.statusCode ?? 0,
          parsed.code ?? `http_${res.statusCode}`,
          parsed.message ?? `HTTP ${res.statusCode}`,
        ),
      );
    });
    res.on('error', () =>
      resolve(new ApiError(res.statusCode ?? 0, `http_${res.statusCode}`, `HTTP ${res.statusCode}`)),
    );
  });
}

/** Refusals a retry cannot fix: the command stops with the API's message. */
const FATAL = new Set([400, 401, 403, 404, 409]);

/**
 * Holds one session at a time and comes back after any break (capped backoff): deliveries
 * that were in flight when it broke were answered as gone by the server and are retried on
 * the target's schedule, so they reach the next session (docs/cli.md "Losing nothing").
 * Resolves when `stop()` was called; rejects on a refusal a retry cannot fix.
 */
export function listen(opts: ListenOptions, targetId: string): { done: Promise<void>; stop(): void } {
  let stopping = false;
  let ws: WebSocket | null = null;
  let wake: (() => void) | null = null;
  const url = new URL(`/v1/endpoints/${encodeURIComponent(opts.endpointId)}/listen`, opts.apiUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('target_id', targetId);

  const once = (): Promise<'closed' | ApiError> =>
    new Promise((resolve) => {
      const socket = new WebSocket(url, {
        headers: { authorization: `Bearer ${opts.apiKey}` },
        handshakeTimeout: 10_000,
      });
      ws = socket;
      socket.on('unexpected-response', (_req, res) => void refusal(res).then(resolve));
      socket.on('error', (err: Error) => {
        opts.err(`relay listen: ${err.message}`);
        resolve('closed');
      });
      socket.on('close', () => resolve('closed'));
      socket.on('message', (data, isBinary) => {
        if (isBinary) return;
        let frame: CliServerFrame;
        try {
          frame = JSON.parse(data.toString()) as CliServerFrame;
        } catch {
          return;
        }
        if (frame.type === 'hello') {
          opts.err(
            `Listening on ${frame.endpoint_id} (target ${frame.target_id}), forwarding to ${opts.forward.href} — Ctrl-C to stop`,
          );
          return;
        }
        if (frame.type === 'backlog') {
          const line = backlogLine(frame.count);
          if (line) opts.err(line);
          return;
        }
        if (frame.type !== 'delivery') return;
        void forwardLocally(opts.forward, frame.forward, LOCAL_TIMEOUT_MS).then((outcome) => {
          opts.out(deliveryLine(new Date(), frame.forward.event_id, frame.forward.attempt, outcome));
          const ack: CliAckFrame = { type: 'ack', id: frame.id, outcome };
          if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(ack));
        });
      });
    });

  const done = (async () => {
    let delay = RECONNECT_MIN_MS;
    while (!stopping) {
      const opened = Date.now();
      const ended = await once();
      if (stopping) return;
      if (ended instanceof ApiError && FATAL.has(ended.status)) throw ended;
      if (ended instanceof ApiError) opts.err(`relay listen: ${ended.message} (${ended.code}); trying again`);
      // a session that lived a while starts the backoff over
      if (Date.now() - opened > RECONNECT_MAX_MS) delay = RECONNECT_MIN_MS;
      opts.err(`relay listen: disconnected; reconnecting in ${(delay / 1000).toFixed(1)} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      delay = Math.min(RECONNECT_MAX_MS, delay * 2);
    }
  })();
  return {
    done,
    stop() {
      stopping = true;
      wake?.();
      (ws as WebSocket | null)?.close(1000, 'relay listen stopped');
    },
  };
}
