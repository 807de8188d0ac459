"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.DISCORD_HOSTS = void 0;
exports.startFakeDiscord = startFakeDiscord;
const express_1 = __importDefault(require("express"));
const targets_1 = require("@relay/targets");
const https_fake_1 = require("./https-fake");
const fake_platform_1 = require("./fake-platform");
exports.DISCORD_HOSTS = ['discord.com', 'discordapp.com'];
const PATH = /^\/api(?:\/v\d+)?\/webhooks\/(\d+)\/([^/]+)\/?$/;
async function startFakeDiscord(opts = {}) {
    const webhooks = new Map((opts.webhooks ?? []).map((w) => [w.id, w.token]));
    let rateLimit = opts.rateLimit ?? null;
    const buckets = new Map();
    const queued = [];
    const requests = [];
    const messages = [];
    let nextId = 1100000000000000000n;
    const app = (0, express_1.default)();
    app.use(express_1.default.raw({ type: () => true, limit: opts.maxBodyBytes ?? 1024 * 1024 }));
    app.use((req, res) => {
        const reply = (status, body) => {
            requests.push({ method: req.method, path: req.path, query: req.query, headers: req.headers, body: bodyOf(req), status, response: body });
            if (body === undefined)
                res.status(status).end();
            else
                res.status(status).json(body);
        };
        const forced = queued.shift();
        if (forced) {
            res.set(forced.headers ?? {});
            return reply(forced.status, forced.body);
        }
        const m = PATH.exec(req.path);
        if (req.method !== 'POST' || !m)
            return reply(405, { message: '405: Method Not Allowed', code: 0 });
        const [, id, token] = m;
        const known = webhooks.get(id);
        if (known === undefined)
            return reply(404, { message: 'Unknown Webhook', code: 10015 });
        if (known !== token)
            return reply(401, { message: 'Invalid Webhook Token', code: 50027 });
        const limited = takeRateLimit(id, res);
        if (limited !== null) {
            res.set('Retry-After', String(Math.ceil(limited)));
            return reply(429, { message: 'You are being rate limited.', retry_after: limited, global: false });
        }
        const isJson = /^application\/json/i.test(req.get('content-type') ?? '');
        const raw = bodyOf(req);
        let body = {};
        if (isJson) {
            try {
                body = JSON.parse(raw.toString('utf8'));
            }
            catch {
                return reply(400, { message: 'The request body contains invalid JSON.', code: 50109 });
            }
        }
        if (!(0, fake_platform_1.isObject)(body))
            return reply(400, { message: 'Invalid Form Body', code: 50035, errors: { _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }] } });
        const errors = formErrors(body);
        if (errors)
            return reply(400, { message: 'Invalid Form Body', code: 50035, errors });
        const hasContent = typeof body.content === 'string' && body.content.trim() !== '';
        const hasEmbeds = Array.isArray(body.embeds) && body.embeds.length > 0;
        const hasComponents = Array.isArray(body.components) && body.components.length > 0;
        if (!hasContent && !hasEmbeds && !hasComponents)
            return reply(400, { message: 'Cannot send an empty message', code: 50006 });
        const threadId = typeof req.query.thread_id === 'string' ? req.query.thread_id : null;
        messages.push({ webhookId: id, threadId, body, pinged: pings(body) });
        if (req.query.wait !== 'true')
            return reply(204);
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
    app.use((err, req, res, _next) => {
        const status = err.status === 413 ? 413 : 400;
        const body = status === 413 ? { message: 'Request entity too large', code: 40005 } : { message: 'Bad Request', code: 0 };
        requests.push({ method: req.method, path: req.path, query: {}, headers: req.headers, body: Buffer.alloc(0), status, response: body });
        res.status(status).json(body);
    });
    /** Returns the float seconds to wait when the bucket is empty; sets X-RateLimit-* either way. */
    function takeRateLimit(id, res) {
        const limit = rateLimit;
        if (!limit)
            return null;
        const now = Date.now();
        let bucket = buckets.get(id);
        if (!bucket || now >= bucket.resetAt)
            bucket = { remaining: limit.limit, resetAt: now + limit.windowSec * 1000 };
        buckets.set(id, bucket);
        const resetAfter = Math.max(0, (bucket.resetAt - now) / 1000);
        const exhausted = bucket.remaining === 0;
        if (!exhausted)
            bucket.remaining -= 1;
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
    const secure = opts.https ? await (0, https_fake_1.startHttpsFake)('Discord', exports.DISCORD_HOSTS, app) : null;
    const server = secure ? null : await (0, fake_platform_1.listenOnLoopback)(app);
    const baseUrl = secure ? secure.baseUrl : `http://127.0.0.1:${server.address().port}`;
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
        send: (req) => (secure ? secure.send(req) : (0, targets_1.sendRequest)({ ...req, url: rewrite(req.url, baseUrl) }, { timeoutMs: 5000 })),
        close: () => (secure ? secure.close() : (0, fake_platform_1.closeNow)(server)),
    };
}
/** The limits Discord enforces on an execute-webhook body, as its nested `errors` object. */
function formErrors(body) {
    const errors = {};
    const tooLong = (max) => ({ _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` }] });
    if (body.content !== undefined && typeof body.content !== 'string')
        errors.content = { _errors: [{ code: 'BASE_TYPE_STRING', message: 'Could not interpret value as string.' }] };
    else if (typeof body.content === 'string' && body.content.length > 2000)
        errors.content = tooLong(2000);
    if (body.tts !== undefined && typeof body.tts !== 'boolean')
        errors.tts = { _errors: [{ code: 'BOOLEAN_TYPE_CONVERT', message: 'Must be either true or false.' }] };
    const parse = (0, fake_platform_1.isObject)(body.allowed_mentions) ? body.allowed_mentions.parse : undefined;
    if (parse !== undefined && (!Array.isArray(parse) || parse.some((p) => !['users', 'roles', 'everyone'].includes(p)))) {
        errors.allowed_mentions = { parse: { _errors: [{ code: 'ENUM_TYPE_COERCE', message: 'Value must be one of {"users", "roles", "everyone"}.' }] } };
    }
    if (body.embeds !== undefined) {
        const embedErrors = embedsErrors(body.embeds, tooLong);
        if (embedErrors)
            errors.embeds = embedErrors;
    }
    return Object.keys(errors).length > 0 ? errors : null;
}
function embedsErrors(embeds, tooLong) {
    if (!Array.isArray(embeds))
        return { _errors: [{ code: 'LIST_TYPE_CONVERT', message: 'Must be an array.' }] };
    if (embeds.length > 10)
        return tooLong(10);
    const out = {};
    let total = 0;
    embeds.forEach((e, i) => {
        if (!(0, fake_platform_1.isObject)(e))
            return void (out[i] = { _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }] });
        const err = {};
        const check = (value, max, set) => {
            if (typeof value !== 'string')
                return;
            total += value.trim().length;
            if (value.length > max)
                set();
        };
        check(e.title, 256, () => (err.title = tooLong(256)));
        check(e.description, 4096, () => (err.description = tooLong(4096)));
        if ((0, fake_platform_1.isObject)(e.author))
            check(e.author.name, 256, () => (err.author = { name: tooLong(256) }));
        if ((0, fake_platform_1.isObject)(e.footer))
            check(e.footer.text, 2048, () => (err.footer = { text: tooLong(2048) }));
        if (Array.isArray(e.fields)) {
            if (e.fields.length > 25)
                err.fields = tooLong(25);
            e.fields.forEach((f, j) => {
                if (!(0, fake_platform_1.isObject)(f))
                    return;
                if (typeof f.name !== 'string' || f.name.trim() === '' || typeof f.value !== 'string' || f.value.trim() === '') {
                    err.fields = { [j]: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } };
                }
                check(f.name, 256, () => (err.fields = { [j]: { name: tooLong(256) } }));
                check(f.value, 1024, () => (err.fields = { [j]: { value: tooLong(1024) } }));
            });
        }
        if (Object.keys(err).length > 0)
            out[i] = err;
    });
    if (Object.keys(out).length > 0)
        return out;
    if (total > 6000)
        return { _errors: [{ code: 'MAX_EMBED_SIZE_EXCEEDED', message: 'Embed size exceeds maximum size of 6000' }] };
    return null;
}
/** Who a message would ping. Without allowed_mentions everything in the text is parsed. */
function pings(body) {
    const content = typeof body.content === 'string' ? body.content : '';
    const am = (0, fake_platform_1.isObject)(body.allowed_mentions) ? body.allowed_mentions : null;
    const parse = am && Array.isArray(am.parse) ? am.parse : am ? [] : ['users', 'roles', 'everyone'];
    const explicitUsers = am && Array.isArray(am.users) ? am.users : [];
    const explicitRoles = am && Array.isArray(am.roles) ? am.roles : [];
    const mentioned = (re) => [...content.matchAll(re)].map((x) => x[1]);
    return {
        everyone: parse.includes('everyone') && /@(everyone|here)\b/.test(content),
        users: mentioned(/<@!?(\d+)>/g).filter((u) => parse.includes('users') || explicitUsers.includes(u)),
        roles: mentioned(/<@&(\d+)>/g).filter((r) => parse.includes('roles') || explicitRoles.includes(r)),
    };
}
function bodyOf(req) {
    return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}
function rewrite(url, baseUrl) {
    return (0, fake_platform_1.rewriteToFake)('Discord', exports.DISCORD_HOSTS, url, baseUrl);
}
//# sourceMappingURL=fake-discord.js.map