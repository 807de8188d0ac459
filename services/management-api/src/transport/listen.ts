import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { openCliSessionQueue } from '@relay/broker';
import type { BrokerConnection, CliBacklogHandler, CliSessionQueue } from '@relay/broker';
import type { ActivityAttemptV1, CliForwardV1, CliLocalOutcome, CliServerFrame } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { targetsOfEndpoint } from '@relay/store';
import type { Store, TargetRecord } from '@relay/store';
import {
  CLI_ATTEMPT_TIMEOUT_MS,
  CLI_BACKLOG,
  cliForward,
  cliInfo,
  DEFAULT_IN_FLIGHT,
  drainedAttempt,
  MAX_ACK_FRAME_BYTES,
  MAX_FORWARD_BODY_BYTES,
  MAX_SESSIONS_PER_ENDPOINT,
  MAX_WAITING_PER_SESSION,
  retryScheduleOf,
  SESSION_HEARTBEAT_MS,
} from '@relay/targets';
import type { CliNoAnswer } from '@relay/targets';
import { loadEndpoint } from '../adapters/endpoint-store';
import { keyForSecret } from '../adapters/api-keys';
import type { CliSessionSlots } from '../adapters/cli-session-slots';
import { readAckFrame } from '../domain/cli-ack';
import { allows } from '../domain/roles';
import { carriable, UNCARRIABLE_MESSAGE } from '../openapi/string-safety';

export interface ListenDeps {
  store: Store;
  broker: BrokerConnection;
  namespace: string;
  slots: CliSessionSlots;
  /** where the attempts of deliveries drained from a backlog are recorded (the activity log, broker-confirmed) */
  recordAttempt(attempt: ActivityAttemptV1): Promise<void>;
  logger: Logger;
}

/** The one path that upgrades: `GET /v1/endpoints/{endpoint_id}/listen[?target_id=tg_…]` (docs/cli.md "The session"). */
const LISTEN_PATH = /^\/v1\/endpoints\/([^/]+)\/listen$/;

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * `relay listen`'s server side: a WebSocket upgrade on the API port,
 * authenticated like every route (`Authorization: Bearer <api key>`, editor or higher: a session
 * answers deliveries), for one CLI session target of the caller's endpoint. A refused upgrade is
 * an ordinary JSON error (status, `code`, message) before any WebSocket exists. Returns what
 * shutdown calls: every session ends, its unanswered forwards answered as gone (retried).
 */
export function attachListen(server: Server, deps: ListenDeps): { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_ACK_FRAME_BYTES });
  const live = new Set<() => Promise<void>>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    admit(req, deps)
      .then((admitted) =>
        wss.handleUpgrade(req, socket, head, (ws) => {
          const end = runSession(ws, admitted, deps);
          live.add(end);
          ws.once('close', () => live.delete(end));
        }),
      )
      .catch((err: unknown) => {
        if (!(err instanceof Refusal)) deps.logger.error('listen upgrade failed', { error: (err as Error).message });
        refuse(
          socket,
          err instanceof Refusal ? err : new Refusal(500, 'internal_error', 'The session could not be opened.'),
        );
      });
  });
  return {
    async close() {
      await Promise.all([...live].map((end) => end()));
      wss.close();
    },
  };
}

interface Admitted {
  sessionId: string;
  accountId: string;
  endpointId: string;
  target: TargetRecord;
  inFlight: number;
}

/** A path segment as the express routes decode it: bad percent-encoding is the caller's mistake, a 400 like theirs. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new Refusal(400, 'malformed_path', 'The URL path is not valid percent-encoding.');
  }
}

/** Every check before the upgrade, in the order the API's routes make them; throws a Refusal. */
async function admit(req: IncomingMessage, deps: ListenDeps): Promise<Admitted> {
  const url = new URL(req.url ?? '/', 'http://relay.invalid');
  const match = LISTEN_PATH.exec(url.pathname);
  if (!match || req.method !== 'GET') throw new Refusal(404, 'not_found', 'Not found.');
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  const key = bearer ? await keyForSecret(deps.store, bearer[1]!) : null;
  if (!key) throw new Refusal(401, 'unauthorized', 'A valid API key is required: Authorization: Bearer <api key>.');
  if (!allows(key.role, 'editor'))
    throw new Refusal(403, 'forbidden', `This API key's role (${key.role}) cannot do this; it needs editor or higher.`);
  const endpointId = decodedSegment(match[1]!);
  const wanted = url.searchParams.get('target_id');
  // what the routes' validator refuses in any parameter, before the store sees it
  for (const [field, value] of [
    ['endpointId', endpointId],
    ['target_id', wanted ?? ''],
  ] as const)
    if (!carriable(value)) throw new Refusal(400, 'validation_failed', `${field} ${UNCARRIABLE_MESSAGE}.`);
  const endpoint = await loadEndpoint(deps.store, key.account_id, endpointId);
  if (!endpoint) throw new Refusal(404, 'endpoint_not_found', `No endpoint ${endpointId} in this account.`);
  const cliTargets = (await targetsOfEndpoint(deps.store, endpointId)).filter(
    (t) => t.kind === 'cli' && (wanted === null || t.id === wanted),
  );
  if (wanted !== null && cliTargets.length === 0)
    throw new Refusal(
      404,
      'target_not_found',
      `target_id ${wanted} is not a CLI session target of endpoint ${endpointId}.`,
    );
  if (cliTargets.length === 0)
    throw new Refusal(
      409,
      'no_cli_target',
      `Endpoint ${endpointId} has no CLI session target: create one (kind "cli") first.`,
    );
  if (cliTargets.length > 1)
    throw new Refusal(
      409,
      'target_id_required',
      `Endpoint ${endpointId} has several CLI session targets: name one with target_id.`,
    );
  const target = cliTargets[0]!;
  if (!target.enabled)
    throw new Refusal(409, 'target_disabled', `Target ${target.id} is disabled: it receives no deliveries.`);
  if (!deps.broker.isUp())
    throw new Refusal(503, 'broker_unavailable', 'The broker is not reachable; try again shortly.');
  const sessionId = randomUUID();
  if (!(await deps.slots.take(endpointId, sessionId, MAX_SESSIONS_PER_ENDPOINT))) {
    throw new Refusal(
      429,
      'too_many_sessions',
      `Endpoint ${endpointId} already has ${MAX_SESSIONS_PER_ENDPOINT} relay listen sessions.`,
    );
  }
  const inFlight = typeof target.config.in_flight === 'number' ? target.config.in_flight : DEFAULT_IN_FLIGHT;
  return { sessionId, accountId: key.account_id, endpointId, target, inFlight };
}

function refuse(socket: Duplex, r: Refusal): void {
  const body = JSON.stringify({ code: r.code, message: r.message });
  const auth = r.status === 401 ? 'WWW-Authenticate: Bearer realm="relay"\r\n' : '';
  socket.end(
    `HTTP/1.1 ${r.status} ${STATUS_CODES[r.status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${auth}Connection: close\r\n\r\n${body}`,
  );
}

/**
 * One live session: forwards from the target's session queue go to the CLI as `delivery`
 * frames; each `ack` frame is that forward's answer. The session ends when the CLI goes away
 * (close, or no pong within a heartbeat), the broker channel is lost, or the API shuts down; its
 * unanswered forwards are answered as gone, so their deliverers retry at once.
 */
function runSession(ws: WebSocket, s: Admitted, deps: ListenDeps): () => Promise<void> {
  const log = { session_id: s.sessionId, endpoint_id: s.endpointId, target_id: s.target.id };
  const waiting = new Map<string, (outcome: CliLocalOutcome | { gone: string }) => void>();
  let queue: CliSessionQueue | null = null;
  let ended: Promise<void> | null = null;
  /** ends the wait before a backlog delivery's next try, when the session ends */
  let wakeDrain: (() => void) | null = null;
  let alive = true;
  const end = (reason: string, code = 1000): Promise<void> => {
    ended ??= (async () => {
      clearInterval(beat);
      wakeDrain?.();
      for (const answer of [...waiting.values()]) answer({ gone: reason });
      waiting.clear();
      await queue?.close(reason);
      await deps.slots
        .release(s.endpointId, s.sessionId)
        .catch((err: Error) =>
          deps.logger.warn('CLI session slot not released; its lease ends it', { ...log, error: err.message }),
        );
      if (ws.readyState === ws.OPEN) ws.close(code, reason.slice(0, 120));
      deps.logger.info('CLI session ended', { ...log, reason });
    })();
    return ended;
  };
  const beat = setInterval(() => {
    if (!alive) return void end('no pong from the CLI', 1001).then(() => ws.terminate());
    alive = false;
    ws.ping();
    deps.slots
      .take(s.endpointId, s.sessionId, MAX_SESSIONS_PER_ENDPOINT)
      .catch((err: Error) => deps.logger.warn('CLI session lease not renewed', { ...log, error: err.message }));
  }, SESSION_HEARTBEAT_MS);
  ws.on('pong', () => (alive = true));
  ws.on('close', () => void end('the CLI disconnected'));
  ws.on('error', (err: Error) => deps.logger.warn('CLI session socket error', { ...log, error: err.message }));
  ws.on('message', (data, isBinary) => {
    const ack = isBinary ? null : readAckFrame(data.toString());
    if (!ack) return void end('a frame that is not an ack', 1008);
    const answer = waiting.get(ack.id);
    if (!answer) return; // answered already, or ended: a late ack is harmless
    waiting.delete(ack.id);
    answer(ack.outcome);
  });
  const send = (frame: CliServerFrame): void => ws.send(JSON.stringify(frame));
  /** one forward to the CLI; answered once: its ack, or gone (the session ended, or no ack within the deliverer's wait) */
  const toCli = (forward: CliForwardV1, answer: (outcome: CliLocalOutcome | { gone: string }) => void): void => {
    if (ended) return answer({ gone: 'the session ended' });
    const id = randomUUID();
    // a CLI that never acks must not hold an in-flight slot for ever: past the deliverer's wait
    // the forward is answered as gone (the deliverer has moved on) and the slot is free again
    const expiry = setTimeout(() => {
      if (waiting.delete(id)) answer({ gone: 'the CLI did not answer in time' });
    }, CLI_ATTEMPT_TIMEOUT_MS);
    waiting.set(id, (outcome) => {
      clearTimeout(expiry);
      answer(outcome);
    });
    send({ type: 'delivery', id, forward });
  };
  /**
   * A backlog delivery, tried until it is finished or the session ends (docs/cli.md "The
   * backlog"); each attempt recorded as the deliverer records one, before the next.
   */
  const drainOne: CliBacklogHandler = async (d) => {
    const schedule = retryScheduleOf(s.target, cliInfo);
    for (let tries = 0; ; tries++) {
      if (ended) return 'stop';
      const attemptedAt = new Date();
      let forward: CliForwardV1;
      try {
        forward = cliForward({ ...d, attempt: d.attempt + tries });
      } catch (err) {
        // larger than a session takes (the limit changed since it was kept): failed for good
        const tooLarge = { error: { code: 'CLI_PAYLOAD_TOO_LARGE', message: (err as Error).message }, duration_ms: 0 };
        return { recorded: deps.recordAttempt(drainedAttempt(d, tries, tooLarge, [], attemptedAt).record) };
      }
      const answer = await new Promise<CliLocalOutcome | { gone: string }>((resolve) => toCli(forward, resolve));
      if ('gone' in answer && ended) return 'stop';
      const got: CliLocalOutcome | CliNoAnswer = 'gone' in answer ? 'timeout' : answer;
      const { record, retryInMs } = drainedAttempt(d, tries, got, schedule, attemptedAt);
      if (retryInMs === null) return { recorded: deps.recordAttempt(record) };
      await deps.recordAttempt(record);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, retryInMs);
        wakeDrain = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  openCliSessionQueue(deps.broker, {
    namespace: deps.namespace,
    targetId: s.target.id,
    inFlight: s.inFlight,
    maxWaiting: MAX_WAITING_PER_SESSION,
    backlog: CLI_BACKLOG,
    logger: deps.logger,
    onForward: toCli,
    onKept: drainOne,
    onLost: () => void end('the broker connection was lost', 1011),
  })
    .then((q) => {
      queue = q;
      if (ended) return void q.close('the session ended');
      send({
        type: 'hello',
        session_id: s.sessionId,
        target_id: s.target.id,
        endpoint_id: s.endpointId,
        in_flight: s.inFlight,
        max_message_bytes: MAX_FORWARD_BODY_BYTES,
      });
      send({ type: 'backlog', count: q.backlogCount });
      deps.logger.info('CLI session started', { ...log, in_flight: s.inFlight, backlog: q.backlogCount });
      void q.start();
    })
    .catch((err: Error) => {
      deps.logger.warn('CLI session queue not opened', { ...log, error: err.message });
      void end('the broker did not open the session', 1011);
    });
  return () => end('the management API is shutting down', 1001);
}
