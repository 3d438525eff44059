// The user's part of a sign-in, done by headless Chromium (Debian's /usr/bin/chromium through
// playwright-core): open the link the client printed, fill in the authorization server's sign-in
// form, allow on its consent page, and land on the client's loopback redirect. Each run gets a
// fresh profile folder, so no cookie from an earlier sign-in carries over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { DEFAULT_USER } from './authorization-server.js';
import type { TestUser } from './interactions.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserSignIn {
  /** The page's text where the browser ended (the client's "signed in" page, or an error). */
  finalText: string;
  finalUrl: string;
  /** The scopes the consent page showed. */
  consentedScopes: string;
}

/** Opens `url`, signs in as `user`, allows on the consent page, and waits for the redirect to `landsOn` (a URL prefix). */
export async function signInWithBrowser(
  url: string,
  options: { user?: TestUser; landsOn: string; deny?: boolean; timeoutMs?: number },
): Promise<BrowserSignIn> {
  const user = options.user ?? DEFAULT_USER;
  const profile = mkdtempSync(path.join(tmpdir(), 'mcphost-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(options.timeoutMs ?? 15_000);
    await page.goto(url);
    await page.fill('input[name=login]', user.login);
    await page.fill('input[name=password]', user.password);
    await page.click('button[type=submit]');
    await page.waitForSelector('#scopes');
    const consentedScopes = (await page.textContent('#scopes')) ?? '';
    await page.click(options.deny ? 'text=Deny' : 'text=Allow');
    await page.waitForURL((u) => u.href.startsWith(options.landsOn));
    await page.waitForLoadState('load');
    return { finalText: (await page.textContent('body')) ?? '', finalUrl: page.url(), consentedScopes };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
