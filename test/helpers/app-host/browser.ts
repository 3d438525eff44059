// Debian's Chromium (/usr/bin/chromium, apt package `chromium`) driven by playwright-core: headless,
// no network of its own, a fresh profile per launch, removed on close.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.MCPHOST_CHROMIUM || '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<LaunchedBrowser> {
  const profile = await mkdtemp(path.join(tmpdir(), 'mcphost-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 960, height: 720 },
      deviceScaleFactor: 1,
      timeout: 30_000,
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw new Error(`could not start ${CHROMIUM} (Debian: apt-get install chromium): ${(error as Error).message}`, { cause: error });
  }
  // Every locator wait and action is bounded; a test says what it waited for when one runs out.
  context.setDefaultTimeout(10_000);
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    },
  };
}
