"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.startOutputsDeliverer = startOutputsDeliverer;
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = __importDefault(require("node:path"));
const services_1 = require("./services");
/**
 * The outputs deliverer as operators run it — the deliverer program on the outputs channel —
 * sending email to the test SMTP server (STARTTLS, AUTH as `relay` with `smtpPassword`) and
 * spreadsheet rows to the Google fake, each trusted through a CA file of its own.
 */
async function startOutputsDeliverer(env, to) {
    const dir = (0, node_fs_1.mkdtempSync)(node_path_1.default.join((0, node_os_1.tmpdir)(), 'relay-outputs-'));
    (0, node_fs_1.writeFileSync)(node_path_1.default.join(dir, 'smtp-ca.pem'), to.smtp.ca);
    (0, node_fs_1.writeFileSync)(node_path_1.default.join(dir, 'google-ca.pem'), to.google.ca);
    return (0, services_1.startService)('outputs-deliverer', {
        ...env,
        SSRF_ALLOW_CIDRS: '127.0.0.1/32',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(to.smtp.port),
        SMTP_USERNAME: 'relay',
        SMTP_PASSWORD: to.smtpPassword,
        SMTP_FROM: 'relay@relay.example',
        SMTP_CA_FILE: node_path_1.default.join(dir, 'smtp-ca.pem'),
        GOOGLE_TOKEN_URL: `${to.google.baseUrl}/token`,
        GOOGLE_SHEETS_URL: `${to.google.baseUrl}/v4/spreadsheets/`,
        GOOGLE_CA_FILE: node_path_1.default.join(dir, 'google-ca.pem'),
    });
}
//# sourceMappingURL=outputs-deliverer.js.map