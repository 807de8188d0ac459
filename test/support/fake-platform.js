"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isObject = isObject;
exports.rewriteToFake = rewriteToFake;
exports.listenOnLoopback = listenOnLoopback;
exports.closeNow = closeNow;
/** Helpers both fake chat platforms share. */
function isObject(v) {
    return v !== null && typeof v === 'object' && !Array.isArray(v);
}
/**
 * Points a request for one of the platform's real hosts at the fake. Any other host throws,
 * so a test can never reach the real platform by mistake.
 */
function rewriteToFake(platform, realHosts, url, baseUrl) {
    const u = new URL(url);
    if (u.protocol !== 'https:' || !realHosts.includes(u.hostname))
        throw new Error(`fake ${platform}: refusing to send to ${u.host}`);
    return new URL(u.pathname + u.search, baseUrl).toString();
}
function listenOnLoopback(app) {
    return new Promise((resolve, reject) => {
        const server = app.listen(0, '127.0.0.1', (err) => (err ? reject(err) : resolve(server)));
    });
}
function closeNow(server) {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
}
//# sourceMappingURL=fake-platform.js.map