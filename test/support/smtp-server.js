"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startTestSmtpServer = startTestSmtpServer;
const smtp_server_1 = require("smtp-server");
const mailparser_1 = require("mailparser");
const selfsigned_1 = require("selfsigned");
function replyError(reply) {
    return Object.assign(new Error(reply.message), { responseCode: reply.code });
}
async function startTestSmtpServer(opts) {
    const pems = (0, selfsigned_1.generate)([{ name: 'commonName', value: 'localhost' }], {
        keySize: 2048,
        algorithm: 'sha256',
        days: 1,
        extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
    });
    const received = [];
    const rejected = new Map();
    const dataFailures = [];
    let dataDelayMs = 0;
    const timers = new Set();
    const server = new smtp_server_1.SMTPServer({
        secure: opts.security === 'tls',
        key: pems.private,
        cert: pems.cert,
        hideSTARTTLS: opts.security !== 'starttls',
        authOptional: opts.auth === undefined,
        // AUTH over an unencrypted session is refused, as real relays do
        allowInsecureAuth: false,
        authMethods: ['PLAIN', 'LOGIN'],
        // `plain` refuses STARTTLS outright: hiding it alone still lets a client that asks upgrade
        disabledCommands: [...(opts.auth === undefined ? ['AUTH'] : []), ...(opts.security === 'plain' ? ['STARTTLS'] : [])],
        logger: false,
        size: 50 * 1024 * 1024,
        onAuth(auth, _session, callback) {
            if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass)
                return callback(null, { user: auth.username });
            return callback(Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }));
        },
        onRcptTo(address, _session, callback) {
            const reply = rejected.get(address.address);
            return reply ? callback(replyError(reply)) : callback();
        },
        onData(stream, session, callback) {
            const chunks = [];
            stream.on('data', (c) => chunks.push(c));
            stream.on('end', () => {
                const answer = () => {
                    const failure = dataFailures.shift();
                    if (failure)
                        return callback(replyError(failure));
                    const raw = Buffer.concat(chunks);
                    const envelope = {
                        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                        to: session.envelope.rcptTo.map((r) => r.address),
                    };
                    (0, mailparser_1.simpleParser)(raw)
                        .then((parsed) => {
                        received.push({ envelope, raw, parsed, secure: session.secure, user: session.user });
                        callback(null, 'OK: queued');
                    })
                        .catch((err) => callback(err));
                };
                if (dataDelayMs <= 0)
                    return answer();
                const t = setTimeout(() => {
                    timers.delete(t);
                    answer();
                }, dataDelayMs);
                timers.add(t);
            });
        },
    });
    server.on('error', () => undefined);
    await new Promise((resolve, reject) => {
        server.listen(0, '127.0.0.1', () => resolve());
        server.server.once('error', reject);
    });
    const port = server.server.address().port;
    return {
        port,
        ca: pems.cert,
        received,
        rejectRecipient: (address, reply) => rejected.set(address, reply),
        failNextData: (reply) => dataFailures.push(reply),
        setDataDelay: (ms) => (dataDelayMs = ms),
        waitFor: async (count, timeoutMs = 5_000) => {
            const deadline = Date.now() + timeoutMs;
            while (received.length < count) {
                if (Date.now() > deadline)
                    throw new Error(`smtp test server: ${received.length} of ${count} messages after ${timeoutMs} ms`);
                await new Promise((r) => setTimeout(r, 20));
            }
            return received;
        },
        close: () => {
            for (const t of timers)
                clearTimeout(t);
            return new Promise((resolve) => server.close(() => resolve()));
        },
    };
}
//# sourceMappingURL=smtp-server.js.map