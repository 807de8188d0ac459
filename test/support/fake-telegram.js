"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.TELEGRAM_HOSTS = void 0;
exports.startFakeTelegram = startFakeTelegram;
const express_1 = __importDefault(require("express"));
const fake_platform_1 = require("./fake-platform");
const https_fake_1 = require("./https-fake");
exports.TELEGRAM_HOSTS = ['api.telegram.org'];
const MAX_TEXT = 4096;
/** What members see of HTML: tags gone, the four entities decoded; null when it does not parse. */
function visibleHtml(text) {
    const allowed = /^\/?(b|strong|i|em|u|ins|s|strike|del|span|tg-spoiler|a|code|pre|blockquote|tg-emoji)(\s[^>]*)?$/;
    const stack = [];
    for (const m of text.matchAll(/<([^<>]*)>/g)) {
        const tag = m[1].trim();
        if (!allowed.test(tag))
            return null;
        const name = tag.replace(/^\//, '').split(/\s/)[0];
        if (tag.startsWith('/')) {
            if (stack.pop() !== name)
                return null;
        }
        else
            stack.push(name);
    }
    if (stack.length > 0 || /&(?!(lt|gt|amp|quot);)/.test(text) || /[<>]/.test(text.replace(/<[^<>]*>/g, '')))
        return null;
    return text.replace(/<[^<>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}
/** MarkdownV2: every special character outside code must be escaped; null when one is not. */
function visibleMarkdownV2(text) {
    let out = '';
    let inCode = false;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (c === '\\') {
            out += text[i + 1] ?? '';
            i++;
        }
        else if (text.startsWith('```', i)) {
            // an opening fence may name a language up to the line's end; the newlines next to the
            // fences are not part of the block
            if (!inCode)
                i = text.indexOf('\n', i) === -1 ? i + 2 : text.indexOf('\n', i);
            else {
                out = out.replace(/\n$/, '');
                i += 2;
            }
            inCode = !inCode;
        }
        else if (inCode)
            out += c;
        else if ('*_~|`'.includes(c))
            continue; // formatting marks
        else if ('[]()>#+-={}.!'.includes(c))
            return null; // must have been escaped
        else
            out += c;
    }
    return inCode ? null : out;
}
async function startFakeTelegram() {
    const bots = new Map();
    const blocked = new Set();
    const migrated = new Map();
    let rateLimit = null;
    const buckets = new Map();
    const messages = [];
    const requests = [];
    const app = (0, express_1.default)();
    app.use(express_1.default.raw({ type: () => true, limit: '1mb' }));
    app.use((req, res) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        requests.push({ method: req.method, path: req.path, body: raw });
        const fail = (code, description, parameters) => void res.status(code).json({ ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });
        const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.path);
        if (!m)
            return fail(404, 'Not Found');
        const chats = bots.get(m[1]);
        if (!chats)
            return fail(401, 'Unauthorized');
        if (m[2].toLowerCase() !== 'sendmessage')
            return fail(404, 'Not Found: method not found');
        let body;
        try {
            body = JSON.parse(raw.toString('utf8'));
        }
        catch {
            return fail(400, 'Bad Request: invalid JSON');
        }
        if (!(0, fake_platform_1.isObject)(body))
            return fail(400, 'Bad Request: invalid JSON');
        const chat = String(body.chat_id ?? '');
        if (!chat)
            return fail(400, 'Bad Request: chat_id is empty');
        const movedTo = migrated.get(chat);
        if (movedTo !== undefined)
            return fail(400, 'Bad Request: group chat was upgraded to a supergroup chat', { migrate_to_chat_id: movedTo });
        if (!chats.has(chat))
            return fail(400, 'Bad Request: chat not found');
        if (blocked.has(chat))
            return fail(403, 'Forbidden: bot was blocked by the user');
        const wait = take(`${m[1]}:${chat}`);
        if (wait !== null)
            return fail(429, `Too Many Requests: retry after ${wait}`, { retry_after: wait });
        if (typeof body.text !== 'string' || body.text.trim() === '')
            return fail(400, 'Bad Request: message text is empty');
        const mode = body.parse_mode;
        if (mode !== undefined && mode !== 'HTML' && mode !== 'MarkdownV2' && mode !== 'Markdown')
            return fail(400, 'Bad Request: unsupported parse_mode');
        const visible = mode === 'HTML' ? visibleHtml(body.text) : mode === 'MarkdownV2' ? visibleMarkdownV2(body.text) : body.text;
        if (visible === null)
            return fail(400, "Bad Request: can't parse entities: unexpected character");
        if (visible.length > MAX_TEXT)
            return fail(400, 'Bad Request: message is too long');
        messages.push({ chat_id: chat, visible, body });
        res.json({ ok: true, result: { message_id: messages.length, chat: { id: chat }, date: Math.floor(Date.now() / 1000), text: visible } });
    });
    function take(key) {
        if (!rateLimit)
            return null;
        const now = Date.now();
        let bucket = buckets.get(key);
        if (!bucket || now >= bucket.resetAt)
            bucket = { remaining: rateLimit.limit, resetAt: now + rateLimit.windowSec * 1000 };
        buckets.set(key, bucket);
        if (bucket.remaining === 0)
            return Math.max(1, Math.ceil((bucket.resetAt - now) / 1000));
        bucket.remaining -= 1;
        return null;
    }
    const fake = await (0, https_fake_1.startHttpsFake)('Telegram', exports.TELEGRAM_HOSTS, app);
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
//# sourceMappingURL=fake-telegram.js.map