"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.TEAMS_HOST = void 0;
exports.startFakeTeams = startFakeTeams;
const express_1 = __importDefault(require("express"));
const fake_platform_1 = require("./fake-platform");
const https_fake_1 = require("./https-fake");
exports.TEAMS_HOST = 'prod-12.westeurope.logic.azure.com';
const MAX_BYTES = 28 * 1024;
const CARD = 'application/vnd.microsoft.card.adaptive';
function readable(body) {
    if (typeof body.text === 'string' && body.text !== '')
        return true;
    if (body.type !== 'message' || !Array.isArray(body.attachments) || body.attachments.length === 0)
        return false;
    return body.attachments.every((a) => (0, fake_platform_1.isObject)(a) && a.contentType === CARD && (0, fake_platform_1.isObject)(a.content) && a.content.type === 'AdaptiveCard');
}
async function startFakeTeams() {
    const workflows = new Map();
    let perSecond = null;
    let window = { start: 0, count: 0 };
    const posted = [];
    const requests = [];
    const app = (0, express_1.default)();
    app.use(express_1.default.raw({ type: () => true, limit: '1mb' }));
    app.use((req, res) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        requests.push({ method: req.method, path: req.path, body: raw });
        const fail = (status, code, message) => void res.status(status).json({ error: { code, message } });
        const m = /^\/workflows\/([^/]+)\/triggers\/manual\/paths\/invoke$/.exec(req.path);
        const flow = m ? workflows.get(m[1]) : undefined;
        if (!m || !flow || req.method !== 'POST')
            return fail(404, 'WorkflowNotFound', `The workflow '${m?.[1] ?? ''}' could not be found.`);
        if (req.query.sig !== flow.sig)
            return fail(401, 'DirectApiInvalidAuthorizationSignature', `The provided authorization signature for '${req.originalUrl}' is not valid.`);
        if (!flow.enabled)
            return fail(409, 'WorkflowTriggerIsNotEnabled', 'The workflow trigger is not enabled.');
        const now = Date.now();
        if (now - window.start >= 1000)
            window = { start: now, count: 0 };
        if (perSecond !== null && ++window.count > perSecond) {
            res.set('Retry-After', '1');
            return fail(429, 'TooManyRequests', 'Rate limit is exceeded. Try again in 1 seconds.');
        }
        if (raw.length > MAX_BYTES)
            return fail(413, 'RequestEntityTooLarge', `The message is ${raw.length} bytes; the limit is 28 KB.`);
        let body;
        try {
            body = JSON.parse(raw.toString('utf8'));
        }
        catch {
            return fail(400, 'InvalidRequestContent', 'The request content is not valid JSON.');
        }
        if (!(0, fake_platform_1.isObject)(body) || !readable(body))
            return fail(400, 'InvalidRequestContent', 'The message is neither an Adaptive Card attachment nor text.');
        posted.push({ workflow: m[1], body });
        res.status(202).end();
    });
    const fake = await (0, https_fake_1.startHttpsFake)('Teams', [exports.TEAMS_HOST], app);
    return {
        tls: { ca: fake.ca, routes: fake.routes },
        posted,
        requests,
        addWorkflow: (id, sig) => void workflows.set(id, { sig, enabled: true }),
        disable: (id) => void (workflows.get(id).enabled = false),
        setRateLimit: (n) => {
            perSecond = n;
            window = { start: 0, count: 0 };
        },
        send: (req) => fake.send(req),
        close: () => fake.close(),
    };
}
//# sourceMappingURL=fake-teams.js.map