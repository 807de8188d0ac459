import express from 'express';
import type { Request, Response } from 'express';
import type { OutboundRequest, SendOutcome } from '@relay/targets';
import { isObject } from './fake-platform';
import { startHttpsFake } from './https-fake';

/*
 * A local HTTPS stand-in for the Telegram Bot API's sendMessage, enforcing its documented
 * behaviour (docs/targets-chat.md "Telegram"):
 *   POST /bot<token>/sendMessage, JSON; an unknown token → 401 Unauthorized (404 for a path
 *   that is no method) · unknown chat → 400 "chat not found" · a chat that blocked the bot →
 *   403 "Forbidden: bot was blocked by the user" · a migrated group → 400 with
 *   parameters.migrate_to_chat_id · text missing/empty → 400 "message text is empty" · text
 *   over 4,096 characters after entities parsing → 400 "message is too long" · HTML or
 *   MarkdownV2 that does not parse → 400 "can't parse entities" · past `limit` messages per
 *   chat per window → 429 "Too Many Requests: retry after N" with parameters.retry_after.
 * Every answer is `{ok, result}` or `{ok: false, error_code, description, parameters?}`.
 */

export interface TelegramSaved {
  chat_id: string;
  /** the text as members see it (entities parsed away) */
  visible: string;
  body: Record<string, unknown>;
}

export interface FakeTelegram {
  /** its certificate and the HOST_ROUTES entries that reach it from a deliverer process */
  readonly tls: { ca: string; routes: string[] };
  readonly messages: TelegramSaved[];
  readonly requests: Array<{ method: string; path: string; body: Buffer }>;
  addBot(token: string, chats: string[]): void;
  blockBy(chatId: string): void;
  migrate(chatId: string, to: number): void;
  setRateLimit(limit: { limit: number; windowSec: number } | null): void;
  send(req: OutboundRequest): Promise<SendOutcome>;
  close(): Promise<void>;
}

export const TELEGRAM_HOSTS = ['api.telegram.org'];
const MAX_TEXT = 4096;

/** What members see of HTML: tags gone, the four entities decoded; null when it does not parse. */
function visibleHtml(text: string): string | null {
  const allowed = /^\/?(b|strong|i|em|u|ins|s|strike|del|span|tg-spoiler|a|code|pre|blockquote|tg-emoji)(\s[^>]*)?$/;
  const stack: string[] = [];
  for (const m of text.matchAll(/<([^<>]*)>/g)) {
    const tag = m[1]!.trim();
    if (!allowed.test(tag)) return null;
    const name = tag.replace(/^\//, '').split(/\s/)[0]!;
    if (tag.startsWith('/')) {
      if (stack.pop() !== name) return null;
    } else stack.push(name);
  }
  if (stack.length > 0 || /&(?!(lt|gt|amp|quot);)/.test(text) || /[<>]/.test(text.replace(/<[^<>]*>/g, '')))
    return null;
  return text
    .replace(/<[^<>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** MarkdownV2: every special character outside code must be escaped; null when one is not. */
function visibleMarkdownV2(text: string): string | null {
  let out = '';
  let inCode = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      out += text[i + 1] ?? '';
      i++;
    } else if (text.startsWith('```', i)) {
      // an opening fence may name a language up to the line's end; the newlines next to the
      // fences are not part of the block
      if (!inCode) i = text.indexOf('\n', i) === -1 ? i + 2 : text.indexOf('\n', i);
      else {
        out = out.replace(/\n$/, '');
        i += 2;
      }
      inCode = !inCode;
    } else if (inCode) out += c;
    else if ('*_~|`'.includes(c))
      continue; // formatting marks
    else if ('[]()>#+-={}.!'.includes(c))
      return null; // must have been escaped
    else out += c;
  }
  return inCode ? null : out;
}

export async function startFakeTelegram(): Promise<FakeTelegram> {
  const bots = new Map<string, Set<string>>();
  const blocked = new Set<string>();
  const migrated = new Map<string, number>();
  let rateLimit: { limit: number; windowSec: number } | null = null;
  const buckets = new Map<string, { remaining: number; resetAt: number }>();
  const messages: TelegramSaved[] = [];
  const requests: FakeTelegram['requests'] = [];

  const app = express();
  app.use(express.raw({ type: () => true, limit: '1mb' }));
  app.use((req: Request, res: Response) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    requests.push({ method: req.method, path: req.path, body: raw });
    const fail = (code: number, description: string, parameters?: Record<string, unknown>): void =>
      void res.status(code).json({ ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });
    const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.path);
    if (!m) return fail(404, 'Not Found');
    const chats = bots.get(m[1]!);
    if (!chats) return fail(401, 'Unauthorized');
    if (m[2]!.toLowerCase() !== 'sendmessage') return fail(404, 'Not Found: method not found');
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return fail(400, 'Bad Request: invalid JSON');
    }
    if (!isObject(body)) return fail(400, 'Bad Request: invalid JSON');
    const chat = String(body.chat_id ?? '');
    if (!chat) return fail(400, 'Bad Request: chat_id is empty');
    const movedTo = migrated.get(chat);
    if (movedTo !== undefined)
      return fail(400, 'Bad Request: group chat was upgraded to a supergroup chat', { migrate_to_chat_id: movedTo });
    if (!chats.has(chat)) return fail(400, 'Bad Request: chat not found');
    if (blocked.has(chat)) return fail(403, 'Forbidden: bot was blocked by the user');
    const wait = take(`${m[1]}:${chat}`);
    if (wait !== null) return fail(429, `Too Many Requests: retry after ${wait}`, { retry_after: wait });
    if (typeof body.text !== 'string' || body.text.trim() === '')
      return fail(400, 'Bad Request: message text is empty');
    const mode = body.parse_mode;
    if (mode !== undefined && mode !== 'HTML' && mode !== 'MarkdownV2' && mode !== 'Markdown')
      return fail(400, 'Bad Request: unsupported parse_mode');
    const visible =
      mode === 'HTML' ? visibleHtml(body.text) : mode === 'MarkdownV2' ? visibleMarkdownV2(body.text) : body.text;
    if (visible === null) return fail(400, "Bad Request: can't parse entities: unexpected character");
    if (visible.length > MAX_TEXT) return fail(400, 'Bad Request: message is too long');
    messages.push({ chat_id: chat, visible, body });
    res.json({
      ok: true,
      result: { message_id: messages.length, chat: { id: chat }, date: Math.floor(Date.now() / 1000), text: visible },
    });
  });

  function take(key: string): number | null {
    if (!rateLimit) return null;
    const now = Date.now();
    let bucket = buckets.get(key);
    if (!bucket || now >= bucket.resetAt)
      bucket = { remaining: rateLimit.limit, resetAt: now + rateLimit.windowSec * 1000 };
    buckets.set(key, bucket);
    if (bucket.remaining === 0) return Math.max(1, Math.ceil((bucket.resetAt - now) / 1000));
    bucket.remaining -= 1;
    return null;
  }

  const fake = await startHttpsFake('Telegram', TELEGRAM_HOSTS, app);
  return {
    tls: { ca: fake.ca, routes: fake.routes },
    messages,
    requests,
    addBot: (token, chatIds) => void bots.set(token, new Set(chatIds)),
    blockBy: (chatId) => void blocked.add(chatId),
    migrate: (chatId, to) => void migrated.set(chatId, to),
    setRateLimit: (l) => {
      rateLimit = l;
      buckets.clear();
    },
    send: (req) => fake.send(req),
    close: () => fake.close(),
  };
}
