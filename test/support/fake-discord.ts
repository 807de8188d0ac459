import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import type { AddressInfo } from 'node:net';
import { sendRequest } from '@relay/targets';
import type { OutboundRequest, SendOutcome } from '@relay/targets';
import { startHttpsFake } from './https-fake';
import { closeNow, isObject, listenOnLoopback, rewriteToFake } from './fake-platform';

/*
 * A stand-in for Discord's execute-webhook endpoint that enforces the platform's real limits
 * and answers with its real error shapes (shared/reference/chat-platforms.md):
 *   404 {message:"Unknown Webhook", code:10015} · 401 {message:"Invalid Webhook Token", code:50027}
 *   400 {message:"Invalid Form Body", code:50035, errors:{…}} · 400 50006 empty · 400 50109 bad JSON
 *   413 {code:40005} · 429 {message, retry_after:<float>, global:false} + Retry-After
 *   every response carries X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/-Bucket
 *   ?wait=true → 200 + the saved message; otherwise 204.
 * Lengths are counted in UTF-16 code units, like the kind does.
 */

export interface FakeDiscordOptions {
  /** serve over HTTPS with a self-signed certificate valid for the real hosts (default plain HTTP) */
  https?: boolean;
  /** known webhooks; any other id answers 404 10015 */
  webhooks?: ReadonlyArray<{ id: string; token: string }>;
  /** per-webhook bucket: `limit` requests per `windowSec`; default unlimited */
  rateLimit?: { limit: number; windowSec: number };
  /** request bodies above this answer 413 40005 (default 1 MiB) */
  maxBodyBytes?: number;
}

export interface DiscordRecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  status: number;
  response: unknown;
}

/** A message the fake saved, with who it would have pinged under allowed_mentions. */
export interface DiscordSavedMessage {
  webhookId: string;
  threadId: string | null;
  body: Record<string, unknown>;
  pinged: { everyone: boolean; users: string[]; roles: string[] };
}

export interface FakeDiscord {
  /** with `https: true`: its certificate and the HOST_ROUTES entries that reach it from a deliverer process */
  readonly tls?: { ca: string; routes: string[] };
  readonly baseUrl: string;
  readonly requests: DiscordRecordedRequest[];
  readonly messages: DiscordSavedMessage[];
  addWebhook(id: string, token: string): void;
  setRateLimit(limit: { limit: number; windowSec: number } | null): void;
  /** the next answers, before any checks, e.g. `{status: 502}` */
  queueResponse(r: { status: number; body?: unknown; headers?: Record<string, string> }): void;
  /** sends an attempt here: the real Discord origin is swapped for the fake's, path and query kept */
  send(req: OutboundRequest): Promise<SendOutcome>;
  close(): Promise<void>;
}

export const DISCORD_HOSTS = ['discord.com', 'discordapp.com'];
const PATH = /^\/api(?:\/v\d+)?\/webhooks\/(\d+)\/([^/]+)\/?$/;

export async function startFakeDiscord(opts: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const webhooks = new Map((opts.webhooks ?? []).map((w) => [w.id, w.token]));
  let rateLimit = opts.rateLimit ?? null;
  const buckets = new Map<string, { remaining: number; resetAt: number }>();
  const queued: Array<{ status: number; body?: unknown; headers?: Record<string, string> }> = [];
  const requests: DiscordRecordedRequest[] = [];
  const messages: DiscordSavedMessage[] = [];
  let nextId = 1_100_000_000_000_000_000n;

  const app = express();
  app.use(express.raw({ type: () => true, limit: opts.maxBodyBytes ?? 1024 * 1024 }));
  app.use((req: Request, res: Response) => {
    const reply = (status: number, body?: unknown): void => {
      requests.push({
        method: req.method,
        path: req.path,
        query: req.query as Record<string, string>,
        headers: req.headers,
        body: bodyOf(req),
        status,
        response: body,
      });
      if (body === undefined) res.status(status).end();
      else res.status(status).json(body);
    };
    const forced = queued.shift();
    if (forced) {
      res.set(forced.headers ?? {});
      return reply(forced.status, forced.body);
    }
    const m = PATH.exec(req.path);
    if (req.method !== 'POST' || !m) return reply(405, { message: '405: Method Not Allowed', code: 0 });
    const [, id, token] = m as unknown as [string, string, string];
    const known = webhooks.get(id);
    if (known === undefined) return reply(404, { message: 'Unknown Webhook', code: 10015 });
    if (known !== token) return reply(401, { message: 'Invalid Webhook Token', code: 50027 });

    const limited = takeRateLimit(id, res);
    if (limited !== null) {
      res.set('Retry-After', String(Math.ceil(limited)));
      return reply(429, { message: 'You are being rate limited.', retry_after: limited, global: false });
    }
    const isJson = /^application\/json/i.test(req.get('content-type') ?? '');
    const raw = bodyOf(req);
    let body: unknown = {};
    if (isJson) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return reply(400, { message: 'The request body contains invalid JSON.', code: 50109 });
      }
    }
    if (!isObject(body))
      return reply(400, {
        message: 'Invalid Form Body',
        code: 50035,
        errors: { _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }] },
      });
    const errors = formErrors(body);
    if (errors) return reply(400, { message: 'Invalid Form Body', code: 50035, errors });
    const hasContent = typeof body.content === 'string' && body.content.trim() !== '';
    const hasEmbeds = Array.isArray(body.embeds) && body.embeds.length > 0;
    const hasComponents = Array.isArray(body.components) && body.components.length > 0;
    if (!hasContent && !hasEmbeds && !hasComponents)
      return reply(400, { message: 'Cannot send an empty message', code: 50006 });

    const threadId = typeof req.query.thread_id === 'string' ? req.query.thread_id : null;
    messages.push({ webhookId: id, threadId, body, pinged: pings(body) });
    if (req.query.wait !== 'true') return reply(204);
    nextId += 1n;
    return reply(200, {
      id: String(nextId),
      type: 0,
      channel_id: threadId ?? '900000000000000001',
      webhook_id: id,
      author: { id, username: 'Relay test hook', bot: true },
      content: body.content ?? '',
      embeds: body.embeds ?? [],
      tts: body.tts === true,
      mention_everyone: pings(body).everyone,
      timestamp: new Date().toISOString(),
    });
  });
  // body-parser's "entity too large" → Discord's 413 shape
  app.use((err: { status?: number }, req: Request, res: Response, _next: NextFunction) => {
    const status = err.status === 413 ? 413 : 400;
    const body =
      status === 413 ? { message: 'Request entity too large', code: 40005 } : { message: 'Bad Request', code: 0 };
    requests.push({
      method: req.method,
      path: req.path,
      query: {},
      headers: req.headers,
      body: Buffer.alloc(0),
      status,
      response: body,
    });
    res.status(status).json(body);
  });

  /** Returns the float seconds to wait when the bucket is empty; sets X-RateLimit-* either way. */
  function takeRateLimit(id: string, res: Response): number | null {
    const limit = rateLimit;
    if (!limit) return null;
    const now = Date.now();
    let bucket = buckets.get(id);
    if (!bucket || now >= bucket.resetAt) bucket = { remaining: limit.limit, resetAt: now + limit.windowSec * 1000 };
    buckets.set(id, bucket);
    const resetAfter = Math.max(0, (bucket.resetAt - now) / 1000);
    const exhausted = bucket.remaining === 0;
    if (!exhausted) bucket.remaining -= 1;
    res.set({
      'X-RateLimit-Limit': String(limit.limit),
      'X-RateLimit-Remaining': String(bucket.remaining),
      'X-RateLimit-Reset': (bucket.resetAt / 1000).toFixed(3),
      'X-RateLimit-Reset-After': resetAfter.toFixed(3),
      'X-RateLimit-Bucket': `webhook-${id}`,
    });
    return exhausted ? Math.max(0.001, Number(resetAfter.toFixed(3))) : null;
  }

  // over HTTPS (for a deliverer process routed here), or plain HTTP reached through `send`
  const secure = opts.https ? await startHttpsFake('Discord', DISCORD_HOSTS, app) : null;
  const server = secure ? null : await listenOnLoopback(app);
  const baseUrl = secure ? secure.baseUrl : `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return {
    ...(secure ? { tls: { ca: secure.ca, routes: secure.routes } } : {}),
    baseUrl,
    requests,
    messages,
    addWebhook: (id, token) => void webhooks.set(id, token),
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

/** The limits Discord enforces on an execute-webhook body, as its nested `errors` object. */
function formErrors(body: Record<string, unknown>): Record<string, unknown> | null {
  const errors: Record<string, unknown> = {};
  const tooLong = (max: number) => ({
    _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` }],
  });
  if (body.content !== undefined && typeof body.content !== 'string')
    errors.content = { _errors: [{ code: 'BASE_TYPE_STRING', message: 'Could not interpret value as string.' }] };
  else if (typeof body.content === 'string' && body.content.length > 2000) errors.content = tooLong(2000);
  if (body.tts !== undefined && typeof body.tts !== 'boolean')
    errors.tts = { _errors: [{ code: 'BOOLEAN_TYPE_CONVERT', message: 'Must be either true or false.' }] };
  const parse = isObject(body.allowed_mentions) ? body.allowed_mentions.parse : undefined;
  if (
    parse !== undefined &&
    (!Array.isArray(parse) || parse.some((p) => !['users', 'roles', 'everyone'].includes(p as string)))
  ) {
    errors.allowed_mentions = {
      parse: {
        _errors: [{ code: 'ENUM_TYPE_COERCE', message: 'Value must be one of {"users", "roles", "everyone"}.' }],
      },
    };
  }
  if (body.embeds !== undefined) {
    const embedErrors = embedsErrors(body.embeds, tooLong);
    if (embedErrors) errors.embeds = embedErrors;
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

function embedsErrors(embeds: unknown, tooLong: (max: number) => unknown): Record<string, unknown> | null {
  if (!Array.isArray(embeds)) return { _errors: [{ code: 'LIST_TYPE_CONVERT', message: 'Must be an array.' }] };
  if (embeds.length > 10) return tooLong(10) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  let total = 0;
  embeds.forEach((e, i) => {
    if (!isObject(e))
      return void (out[i] = {
        _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }],
      });
    const err: Record<string, unknown> = {};
    const check = (value: unknown, max: number, set: () => void): void => {
      if (typeof value !== 'string') return;
      total += value.trim().length;
      if (value.length > max) set();
    };
    check(e.title, 256, () => (err.title = tooLong(256)));
    check(e.description, 4096, () => (err.description = tooLong(4096)));
    if (isObject(e.author)) check(e.author.name, 256, () => (err.author = { name: tooLong(256) }));
    if (isObject(e.footer)) check(e.footer.text, 2048, () => (err.footer = { text: tooLong(2048) }));
    if (Array.isArray(e.fields)) {
      if (e.fields.length > 25) err.fields = tooLong(25);
      e.fields.forEach((f, j) => {
        if (!isObject(f)) return;
        if (
          typeof f.name !== 'string' ||
          f.name.trim() === '' ||
          typeof f.value !== 'string' ||
          f.value.trim() === ''
        ) {
          err.fields = { [j]: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } };
        }
        check(f.name, 256, () => (err.fields = { [j]: { name: tooLong(256) } }));
        check(f.value, 1024, () => (err.fields = { [j]: { value: tooLong(1024) } }));
      });
    }
    if (Object.keys(err).length > 0) out[i] = err;
  });
  if (Object.keys(out).length > 0) return out;
  if (total > 6000)
    return { _errors: [{ code: 'MAX_EMBED_SIZE_EXCEEDED', message: 'Embed size exceeds maximum size of 6000' }] };
  return null;
}

/** Who a message would ping. Without allowed_mentions everything in the text is parsed. */
function pings(body: Record<string, unknown>): DiscordSavedMessage['pinged'] {
  const content = typeof body.content === 'string' ? body.content : '';
  const am = isObject(body.allowed_mentions) ? body.allowed_mentions : null;
  const parse = am && Array.isArray(am.parse) ? (am.parse as string[]) : am ? [] : ['users', 'roles', 'everyone'];
  const explicitUsers = am && Array.isArray(am.users) ? (am.users as string[]) : [];
  const explicitRoles = am && Array.isArray(am.roles) ? (am.roles as string[]) : [];
  const mentioned = (re: RegExp) => [...content.matchAll(re)].map((x) => x[1]!);
  return {
    everyone: parse.includes('everyone') && /@(everyone|here)\b/.test(content),
    users: mentioned(/<@!?(\d+)>/g).filter((u) => parse.includes('users') || explicitUsers.includes(u)),
    roles: mentioned(/<@&(\d+)>/g).filter((r) => parse.includes('roles') || explicitRoles.includes(r)),
  };
}

function bodyOf(req: Request): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

function rewrite(url: string, baseUrl: string): string {
  return rewriteToFake('Discord', DISCORD_HOSTS, url, baseUrl);
}
