import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';

/**
 * Debian's Chromium (installed by `scripts/infra.sh up`) driven by playwright-core, which
 * downloads nothing. The flags keep it off the network: this machine refuses every outside
 * connection, and a browser's background services would only retry them. playwright starts it
 * with a fresh, empty profile directory of its own and removes it on close.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Browser {
  /** the first user's context */
  context: BrowserContext;
  /** another user: cookies of its own */
  newContext(): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function launchBrowser(viewport = { width: 1366, height: 900 }): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  const newContext = (): Promise<BrowserContext> => browser.newContext({ viewport });
  return { context: await newContext(), newContext, close: () => browser.close() };
}
