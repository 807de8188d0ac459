"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SLACK_HOSTS = void 0;
exports.startFakeSlack = startFakeSlack;
const express_1 = __importDefault(require("express"));
const targets_1 = require("@relay/targets");
const https_fake_1 = require("./https-fake");
const fake_platform_1 = require("./fake-platform");
exports.SLACK_HOSTS = ['hooks.slack.com', 'hooks.slack-gov.com'];
async function startFakeSlack(opts = {}) {
    const hooks = new Set(opts.hooks ?? []);
    const archived = new Set(opts.archived ?? []);
    let rateLimit = opts.rateLimit ?? null;
    const buckets = new Map();
    const queued = [];
    const requests = [];
    const messages = [];
    const app = (0, express_1.default)();
    app.use(express_1.default.raw({ type: () => true, limit: 1024 * 1024 }));
    app.use((req, res) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const reply = (status, text) => {
            requests.push({ method: req.method, path: req.path, headers: req.headers, body: raw, status, response: text });
            res.status(status).type('text/html').send(text);
        };
        const forced = queued.shift();
        if (forced) {
            res.set(forced.headers ?? {});
            return reply(forced.status, forced.body);
        }
        const hook = req.path;
        if (archived.has(hook))
            return reply(410, 'channel_is_archived');
        if (req.method !== 'POST' || !hooks.has(hook))
            return reply(404, 'channel_not_found');
        const wait = takeRateLimit(hook);
        if (wait !== null) {
            res.set('Retry-After', String(wait));
            return reply(429, 'rate_limited');
        }
        const body = parse(req.get('content-type') ?? '', raw);
        if (!body)
            return reply(400, 'invalid_payload');
        const error = messageError(body);
        if (error)
            return reply(400, error);
        const text = typeof body.text === 'string' ? body.text.slice(0, 40_000) : null;
        messages.push({ hook, body, text });
        return reply(200, 'ok');
    });
    app.use((_err, req, res, _next) => {
        requests.push({ method: req.method, path: req.path, headers: req.headers, body: Buffer.alloc(0), status: 400, response: 'invalid_payload' });
        res.status(400).type('text/html').send('invalid_payload');
    });
    /** Whole seconds to wait when the hook's bucket is empty. */
    function takeRateLimit(hook) {
        const limit = rateLimit;
        if (!limit)
            return null;
        const now = Date.now();
        let bucket = buckets.get(hook);
        if (!bucket || now >= bucket.resetAt)
            bucket = { remaining: limit.limit, resetAt: now + limit.windowSec * 1000 };
        buckets.set(hook, bucket);
        if (bucket.remaining === 0)
            return Math.max(1, Math.ceil((bucket.resetAt - now) / 1000));
        bucket.remaining -= 1;
        return null;
    }
    // over HTTPS (for a deliverer process routed here), or plain HTTP reached through `send`
    const secure = opts.https ? await (0, https_fake_1.startHttpsFake)('Slack', exports.SLACK_HOSTS, app) : null;
    const server = secure ? null : await (0, fake_platform_1.listenOnLoopback)(app);
    const baseUrl = secure ? secure.baseUrl : `http://127.0.0.1:${server.address().port}`;
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
        send: (req) => (secure ? secure.send(req) : (0, targets_1.sendRequest)({ ...req, url: rewrite(req.url, baseUrl) }, { timeoutMs: 5000 })),
        close: () => (secure ? secure.close() : (0, fake_platform_1.closeNow)(server)),
    };
}
/** JSON bodies, or the legacy form body `payload=<json>`; null when unreadable (invalid_payload). */
function parse(contentType, raw) {
    let json = raw.toString('utf8');
    if (/^application\/x-www-form-urlencoded/i.test(contentType))
        json = new URLSearchParams(json).get('payload') ?? '';
    else if (!/^application\/json/i.test(contentType))
        return null;
    try {
        const value = JSON.parse(json);
        return (0, fake_platform_1.isObject)(value) ? value : null;
    }
    catch {
        return null;
    }
}
function messageError(body) {
    const hasText = typeof body.text === 'string' && body.text.trim() !== '';
    const hasBlocks = Array.isArray(body.blocks) && body.blocks.length > 0;
    const hasAttachments = Array.isArray(body.attachments) && body.attachments.length > 0;
    if (body.blocks !== undefined && !blocksValid(body.blocks))
        return 'invalid_blocks';
    if (Array.isArray(body.attachments) && body.attachments.length > 100)
        return 'too_many_attachments';
    if (!hasText && !hasBlocks && !hasAttachments)
        return 'no_text';
    return null;
}
/** Block Kit limits: 50 blocks; section text 3,000 and ≤ 10 fields of 2,000; header 150. */
function blocksValid(blocks) {
    if (!Array.isArray(blocks) || blocks.length > 50)
        return false;
    return blocks.every((b) => {
        if (!(0, fake_platform_1.isObject)(b) || typeof b.type !== 'string')
            return false;
        const text = (0, fake_platform_1.isObject)(b.text) ? b.text.text : undefined;
        if (b.type === 'header')
            return typeof text === 'string' && text.length > 0 && text.length <= 150;
        if (b.type !== 'section')
            return true;
        if (text !== undefined && (typeof text !== 'string' || text.length > 3000))
            return false;
        if (b.fields !== undefined) {
            if (!Array.isArray(b.fields) || b.fields.length > 10)
                return false;
            if (b.fields.some((f) => !(0, fake_platform_1.isObject)(f) || typeof f.text !== 'string' || f.text.length > 2000))
                return false;
        }
        return text !== undefined || b.fields !== undefined;
    });
}
function rewrite(url, baseUrl) {
    return (0, fake_platform_1.rewriteToFake)('Slack', exports.SLACK_HOSTS, url, baseUrl);
}
//# sourceMappingURL=fake-slack.js.map