import express from 'express';
import type { Request, Response } from 'express';
import type { OutboundRequest, SendOutcome } from '@relay/targets';
import { isObject } from './fake-platform';
import { startHttpsFake } from './https-fake';

/*
 * A local HTTPS stand-in for a Teams Workflows trigger ("When a Teams webhook request is
 * received"), enforcing the documented behaviour (docs/targets-chat.md "Microsoft Teams"):
 *   POST …/workflows/<id>/triggers/manual/paths/invoke?…&sig=<sig> → 202 Accepted
 *   unknown workflow → 404 WorkflowNotFound · wrong sig → 401 DirectApiInvalidAuthorizationSignature
 *   turned off → 409 WorkflowTriggerIsNotEnabled · body over 28 KB → 413 · not the card envelope
 *   (type message, attachments of application/vnd.microsoft.card.adaptive with an AdaptiveCard)
 *   and no `text` → 400 InvalidRequestContent · more than `limit` requests per second → 429
 *   with Retry-After. Errors are Azure's envelope {"error": {"code", "message"}}.
 */

export interface TeamsPosted {
  workflow: string;
  body: Record<string, unknown>;
}

export interface FakeTeams {
  /** its certificate and the HOST_ROUTES entries that reach it from a deliverer process */
  readonly tls: { ca: string; routes: string[] };
  readonly posted: TeamsPosted[];
  readonly requests: Array<{ method: string; path: string; body: Buffer }>;
  addWorkflow(id: string, sig: string): void;
  disable(id: string): void;
  setRateLimit(perSecond: number | null): void;
  send(req: OutboundRequest): Promise<SendOutcome>;
  close(): Promise<void>;
}

export const TEAMS_HOST = 'prod-12.westeurope.logic.azure.com';
const MAX_BYTES = 28 * 1024;
const CARD = 'application/vnd.microsoft.card.adaptive';

function readable(body: Record<string, unknown>): boolean {
  if (typeof body.text === 'string' && body.text !== '') return true;
  if (body.type !== 'message' || !Array.isArray(body.attachments) || body.attachments.length === 0) return false;
  return body.attachments.every(
    (a) => isObject(a) && a.contentType === CARD && isObject(a.content) && a.content.type === 'AdaptiveCard',
  );
}

export async function startFakeTeams(): Promise<FakeTeams> {
  const workflows = new Map<string, { sig: string; enabled: boolean }>();
  let perSecond: number | null = null;
  let window = { start: 0, count: 0 };
  const posted: TeamsPosted[] = [];
  const requests: FakeTeams['requests'] = [];

  const app = express();
  app.use(express.raw({ type: () => true, limit: '1mb' }));
  app.use((req: Request, res: Response) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    requests.push({ method: req.method, path: req.path, body: raw });
    const fail = (status: number, code: string, message: string): void =>
      void res.status(status).json({ error: { code, message } });
    const m = /^\/workflows\/([^/]+)\/triggers\/manual\/paths\/invoke$/.exec(req.path);
    const flow = m ? workflows.get(m[1]!) : undefined;
    if (!m || !flow || req.method !== 'POST')
      return fail(404, 'WorkflowNotFound', `The workflow '${m?.[1] ?? ''}' could not be found.`);
    if (req.query.sig !== flow.sig)
      return fail(
        401,
        'DirectApiInvalidAuthorizationSignature',
        `The provided authorization signature for '${req.originalUrl}' is not valid.`,
      );
    if (!flow.enabled) return fail(409, 'WorkflowTriggerIsNotEnabled', 'The workflow trigger is not enabled.');
    const now = Date.now();
    if (now - window.start >= 1000) window = { start: now, count: 0 };
    if (perSecond !== null && ++window.count > perSecond) {
      res.set('Retry-After', '1');
      return fail(429, 'TooManyRequests', 'Rate limit is exceeded. Try again in 1 seconds.');
    }
    if (raw.length > MAX_BYTES)
      return fail(413, 'RequestEntityTooLarge', `The message is ${raw.length} bytes; the limit is 28 KB.`);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return fail(400, 'InvalidRequestContent', 'The request content is not valid JSON.');
    }
    if (!isObject(body) || !readable(body))
      return fail(400, 'InvalidRequestContent', 'The message is neither an Adaptive Card attachment nor text.');
    posted.push({ workflow: m[1]!, body });
    res.status(202).end();
  });

  const fake = await startHttpsFake('Teams', [TEAMS_HOST], app);
  return {
    tls: { ca: fake.ca, routes: fake.routes },
    posted,
    requests,
    addWorkflow: (id, sig) => void workflows.set(id, { sig, enabled: true }),
    disable: (id) => void (workflows.get(id)!.enabled = false),
    setRateLimit: (n) => {
      perSecond = n;
      window = { start: 0, count: 0 };
    },
    send: (req) => fake.send(req),
    close: () => fake.close(),
  };
}
