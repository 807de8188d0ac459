import express from 'express';
import type { Request, Response } from 'express';
import type { AddressInfo } from 'node:net';
import { sendRequest } from '@relay/targets';
import type { OutboundRequest, SendOutcome } from '@relay/targets';
import { startHttpsFake } from './https-fake';
import { closeNow, isObject, listenOnLoopback, rewriteToFake } from './fake-platform';

/*
 * A stand-in for Slack incoming webhooks that enforces the platform's real limits and answers
 * with its real plain-text bodies (shared/reference/chat-platforms.md):
 *   200 `ok` (text/html) · 400 invalid_payload | no_text | invalid_blocks | too_many_attachments
 *   404 channel_not_found (unknown hook) · 410 channel_is_archived · 429 + Retry-After (seconds)
 * Message text past 40,000 characters is accepted and cut, as Slack does.
 */

export interface FakeSlackOptions {
  /** serve over HTTPS with a self-signed certificate valid for the real hosts (default plain HTTP) */
  https?: boolean;
  /** known hook paths, `/services/T…/B…/secret`; any other path answers 404 channel_not_found */
  hooks?: readonly string[];
  /** hook paths whose channel is archived (410) */
  archived?: readonly string[];
  /** per-hook: `limit` messages per `windowSec`; default unlimited */
  rateLimit?: { limit: number; windowSec: number };
}

export interface SlackRecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  status: number;
  response: string;
}

export interface SlackSavedMessage {
  hook: string;
  body: Record<string, unknown>;
  /** the text as Slack would show it (cut at 40,000) */
  text: string | null;
}

export interface FakeSlack {
  /** with `https: true`: its certificate and the HOST_ROUTES entries that reach it from a deliverer process */
  readonly tls?: { ca: string; routes: string[] };
  readonly baseUrl: string;
  readonly requests: SlackRecordedRequest[];
  readonly messages: SlackSavedMessage[];
  addHook(path: string): void;
  archive(path: string): void;
  setRateLimit(limit: { limit: number; windowSec: number } | null): void;
  /** the next answers, before any checks, e.g. `{status: 500, body: 'rollup_error'}` */
  queueResponse(r: { status: number; body: string; headers?: Record<string, string> }): void;
  /** sends an attempt here: the real Slack origin is swapped for the fake's, path kept */
  send(req: OutboundRequest): Promise<SendOutcome>;
  close(): Promise<void>;
}

export const SLACK_HOSTS = ['hooks.slack.com', 'hooks.slack-gov.com'];

export async function startFakeSlack(opts: FakeSlackOptions = {}): Promise<FakeSlack> {
  const hooks = new Set(opts.hooks ?? []);
  const archived = new Set(opts.archived ?? []);
  let rateLimit = opts.rateLimit ?? null;
  const buckets = new Map<string, { remaining: number; resetAt: number }>();
  const queued: Array<{ status: number; body: string; headers?: Record<string, string> }> = [];
  const requests: SlackRecordedRequest[] = [];
  const messages: SlackSavedMessage[] = [];

  const app = express();
  app.use(express.raw({ type: () => true, limit: 1024 * 1024 }));
  app.use((req: Request, res: Response) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const reply = (status: number, text: string): void => {
      requests.push({ method: req.method, path: req.path, headers: req.headers, body: raw, status, response: text });
      res.status(status).type('text/html').send(text);
    };
    const forced = queued.shift();
    if (forced) {
      res.set(forced.headers ?? {});
      return reply(forced.status, forced.body);
    }
    const hook = req.path;
    if (archived.has(hook)) return reply(410, 'channel_is_archived');
    if (req.method !== 'POST' || !hooks.has(hook)) return reply(404, 'channel_not_found');
    const wait = takeRateLimit(hook);
    if (wait !== null) {
      res.set('Retry-After', String(wait));
      return reply(429, 'rate_limited');
    }
    const body = parse(req.get('content-type') ?? '', raw);
    if (!body) return reply(400, 'invalid_payload');
    const error = messageError(body);
    if (error) return reply(400, error);
    const text = typeof body.text === 'string' ? body.text.slice(0, 40_000) : null;
    messages.push({ hook, body, text });
    return reply(200, 'ok');
  });
  app.use((_err: unknown, req: Request, res: Response, _next: express.NextFunction) => {
    requests.push({
      method: req.method,
      path: req.path,
      headers: req.headers,
      body: Buffer.alloc(0),
      status: 400,
      response: 'invalid_payload',
    });
    res.status(400).type('text/html').send('invalid_payload');
  });

  /** Whole seconds to wait when the hook's bucket is empty. */
  function takeRateLimit(hook: string): number | null {
    const limit = rateLimit;
    if (!limit) return null;
    const now = Date.now();
    let bucket = buckets.get(hook);
    if (!bucket || now >= bucket.resetAt) bucket = { remaining: limit.limit, resetAt: now + limit.windowSec * 1000 };
    buckets.set(hook, bucket);
    if (bucket.remaining === 0) return Math.max(1, Math.ceil((bucket.resetAt - now) / 1000));
    bucket.remaining -= 1;
    return null;
  }

  // over HTTPS (for a deliverer process routed here), or plain HTTP reached through `send`
  const secure = opts.https ? await startHttpsFake('Slack', SLACK_HOSTS, app) : null;
  const server = secure ? null : await listenOnLoopback(app);
  const baseUrl = secure ? secure.baseUrl : `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return {
    ...(secure ? { tls: { ca: secure.ca, routes: secure.routes } } : {}),
    baseUrl,
    requests,
    messages,
    addHook: (path) => void hooks.add(path),
    archive: (path) => void archived.add(path),
    setRateLimit: (l) => {
      rateLimit = l;
      buckets.clear();
    },
    queueResponse: (r) => void queued.push(r),
    send: (req) =>
      secure ? secure.send(req) : sendRequest({ ...req, url: rewrite(req.url, baseUrl) }, { timeoutMs: 5000 }),
    close: () => (secure ? secure.close() : closeNow(server!)),
  };
}

/** JSON bodies, or the legacy form body `payload=<json>`; null when unreadable (invalid_payload). */
function parse(contentType: string, raw: Buffer): Record<string, unknown> | null {
  let json = raw.toString('utf8');
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) json = new URLSearchParams(json).get('payload') ?? '';
  else if (!/^application\/json/i.test(contentType)) return null;
  try {
    const value: unknown = JSON.parse(json);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function messageError(body: Record<string, unknown>): string | null {
  const hasText = typeof body.text === 'string' && body.text.trim() !== '';
  const hasBlocks = Array.isArray(body.blocks) && body.blocks.length > 0;
  const hasAttachments = Array.isArray(body.attachments) && body.attachments.length > 0;
  if (body.blocks !== undefined && !blocksValid(body.blocks)) return 'invalid_blocks';
  if (Array.isArray(body.attachments) && body.attachments.length > 100) return 'too_many_attachments';
  if (!hasText && !hasBlocks && !hasAttachments) return 'no_text';
  return null;
}

/** Block Kit limits: 50 blocks; section text 3,000 and ≤ 10 fields of 2,000; header 150. */
function blocksValid(blocks: unknown): boolean {
  if (!Array.isArray(blocks) || blocks.length > 50) return false;
  return blocks.every((b) => {
    if (!isObject(b) || typeof b.type !== 'string') return false;
    const text = isObject(b.text) ? b.text.text : undefined;
    if (b.type === 'header') return typeof text === 'string' && text.length > 0 && text.length <= 150;
    if (b.type !== 'section') return true;
    if (text !== undefined && (typeof text !== 'string' || text.length > 3000)) return false;
    if (b.fields !== undefined) {
      if (!Array.isArray(b.fields) || b.fields.length > 10) return false;
      if (b.fields.some((f) => !isObject(f) || typeof f.text !== 'string' || f.text.length > 2000)) return false;
    }
    return text !== undefined || b.fields !== undefined;
  });
}

function rewrite(url: string, baseUrl: string): string {
  return rewriteToFake('Slack', SLACK_HOSTS, url, baseUrl);
}
