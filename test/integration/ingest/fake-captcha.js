"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FakeCaptchaVerifier = void 0;
const node_http_1 = require("node:http");
/**
 * A local stand-in for the hCaptcha / reCAPTCHA / Turnstile siteverify endpoint: a form POST of
 * `secret`, `response` and `remoteip`, answered with `{"success": …}` like the providers.
 * `mode` makes it fail like an outage: a 500, or no answer at all.
 */
class FakeCaptchaVerifier {
    server;
    secret;
    goodToken;
    calls = [];
    mode = 'normal';
    constructor(server, secret, goodToken) {
        this.server = server;
        this.secret = secret;
        this.goodToken = goodToken;
    }
    static async start(secret = 'captcha-secret', goodToken = 'good-token') {
        let self = null;
        const server = (0, node_http_1.createServer)((req, res) => {
            const chunks = [];
            req.on('data', (c) => chunks.push(c));
            req.on('end', () => {
                const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
                self.calls.push(form);
                if (self.mode === 'hang')
                    return;
                if (self.mode === 'error') {
                    res.writeHead(500).end('upstream error');
                    return;
                }
                const success = form.secret === secret && form.response === goodToken;
                res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(success ? { success } : { success, 'error-codes': ['invalid-input-response'] }));
            });
        });
        await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
        self = new FakeCaptchaVerifier(server, secret, goodToken);
        return self;
    }
    url() {
        return `http://127.0.0.1:${this.server.address().port}/siteverify`;
    }
    async close() {
        this.server.closeAllConnections();
        await new Promise((resolve) => this.server.close(() => resolve()));
    }
}
exports.FakeCaptchaVerifier = FakeCaptchaVerifier;
//# sourceMappingURL=fake-captcha.js.map