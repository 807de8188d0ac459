import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { sharedBrowser } from '../worker-stacks';

/**
 * Debian's Chromium (installed by `scripts/infra.sh up`) driven by playwright-core, which
 * downloads nothing. The flags keep it off the network: this machine refuses every outside
 * connection, and a browser's background services would only retry them. One browser serves
 * every file of a Jest worker (test/e2e/worker-stacks.ts); each file connects to it and works in
 * contexts of its own, which share no cookies or storage.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  /** the first user's context */
  context: BrowserContext;
  /** another user: cookies of its own */
  newContext(): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** A connection to the worker's browser; `close()` closes this file's contexts and disconnects. */
export async function launchBrowser(viewport = { width: 1366, height: 900 }): Promise<Browser> {
  const browser = await chromium.connect(await sharedBrowser({ executablePath: CHROMIUM, args: FLAGS }));
  const newContext = (): Promise<BrowserContext> => browser.newContext({ viewport });
  return { context: await newContext(), newContext, close: () => browser.close() };
}

/**
 * With DASHBOARD_SCREENSHOTS=<dir>, the pictures of docs/dashboard/: the page as it is now at
 * laptop and at phone width (`<name>-laptop.png`, `<name>-phone.png`); without it, nothing.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.DASHBOARD_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(300); // let the last render settle before the picture
  await page.screenshot({ path: path.join(dir, `${name}-laptop.png`), fullPage: true });
  const laptop = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(dir, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize(laptop);
}

/** Signs in as a person does: the sign-in page, the key, the button, then the Endpoints page. */
export async function signIn(page: Page, dashboardUrl: string, apiKey: string): Promise<void> {
  await page.goto(dashboardUrl);
  await page.getByLabel('API key', { exact: true }).fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
}
