"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.CHROMIUM = void 0;
exports.launchBrowser = launchBrowser;
exports.screenshot = screenshot;
exports.signIn = signIn;
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const playwright_core_1 = require("playwright-core");
/**
 * Debian's Chromium (installed by `scripts/infra.sh up`) driven by playwright-core, which
 * downloads nothing. The flags keep it off the network: this machine refuses every outside
 * connection, and a browser's background services would only retry them. playwright starts it
 * with a fresh, empty profile directory of its own and removes it on close.
 */
exports.CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
async function launchBrowser(viewport = { width: 1366, height: 900 }) {
    const browser = await playwright_core_1.chromium.launch({ executablePath: exports.CHROMIUM, headless: true, args: FLAGS });
    const newContext = () => browser.newContext({ viewport });
    return { context: await newContext(), newContext, close: () => browser.close() };
}
/**
 * With DASHBOARD_SCREENSHOTS=<dir>, the pictures of docs/dashboard/: the page as it is now at
 * laptop and at phone width (`<name>-laptop.png`, `<name>-phone.png`); without it, nothing.
 */
async function screenshot(page, name) {
    const dir = process.env.DASHBOARD_SCREENSHOTS;
    if (!dir)
        return;
    (0, node_fs_1.mkdirSync)(dir, { recursive: true });
    await page.waitForTimeout(300); // let the last render settle before the picture
    await page.screenshot({ path: node_path_1.default.join(dir, `${name}-laptop.png`), fullPage: true });
    const laptop = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: node_path_1.default.join(dir, `${name}-phone.png`), fullPage: true });
    await page.setViewportSize(laptop);
}
/** Signs in as a person does: the sign-in page, the key, the button, then the Endpoints page. */
async function signIn(page, dashboardUrl, apiKey) {
    await page.goto(dashboardUrl);
    await page.getByLabel('API key', { exact: true }).fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
}
//# sourceMappingURL=browser.js.map