// A web MCP Apps host for browser tests (see README.md beside this file). One browser per test
// file (`launchAppHosts` in beforeAll, `close` in afterAll); any number of hosts in it, each a page
// with its own SDK client connected to one MCP server URL (`mcphost serve --transport http`).
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { REPO } from '../paths.js';
import { launchChromium } from './browser.js';
import { pageScripts } from './bundle.js';
import type { ConnectOptions, HostApi, ShowReport, ToolSummary, ViewCall } from './page/protocol.js';
import { startHostServers, type WireRequest } from './servers.js';

export type { ShowReport, ToolSummary, ViewCall, WireRequest };

/** Where screenshots go (gitignored); `MCPHOST_DOC_SCREENSHOTS=1` also copies those marked `doc` to docs/views/. */
export const ARTIFACTS = path.join(REPO, 'test-artifacts', 'screenshots');
const DOCS = path.join(REPO, 'docs', 'views');

export interface ShownView {
  report: ShowReport;
  /** The view's own document (inside the sandbox proxy's inner iframe). */
  frame: FrameLocator;
}

export interface AppHost {
  page: Page;
  /** tools/list as this host's client saw it, with each tool's view. */
  tools: ToolSummary[];
  /** Calls `tool`, loads its view, hands it the input and the result; resolves when all three are done. */
  show(tool: string, args?: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<ShownView>;
  /** The tools/call requests the view made, with what came back to it. */
  viewCalls(): Promise<ViewCall[]>;
  /** Waits for the view's `n`-th call (1-based) to `name` to be answered. */
  viewCall(name: string, n?: number, timeoutMs?: number): Promise<ViewCall>;
  /** Every JSON-RPC request the page sent on to the MCP server, in order. */
  wire: WireRequest[];
  /** A PNG of the view's iframe in ARTIFACTS (and docs/views/ when asked); returns its path. */
  screenshot(name: string, options?: { doc?: boolean }): Promise<string>;
  /** What the page logged (console, errors, the bridge's log) — put it in a failure message. */
  diagnostics(): string;
  close(): Promise<void>;
}

export interface AppHosts {
  open(mcpUrl: string, options?: Partial<ConnectOptions>): Promise<AppHost>;
  close(): Promise<void>;
}

async function within<T>(ms: number, what: string, work: Promise<T>, diagnostics: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms\n${diagnostics()}`)), ms);
  });
  try {
    return await Promise.race([work, limit]);
  } catch (error) {
    if (error instanceof Error && !error.message.includes('\n--- page ---')) error.message += `\n${diagnostics()}`;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

export async function launchAppHosts(): Promise<AppHosts> {
  const [browser, scripts] = await Promise.all([launchChromium(), pageScripts()]);
  const hosts = new Set<AppHost>();

  async function open(mcpUrl: string, options: Partial<ConnectOptions> = {}): Promise<AppHost> {
    const servers = await startHostServers(mcpUrl, scripts);
    const page = await browser.context.newPage();
    const lines: string[] = [];
    page.on('console', (m) => lines.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => lines.push(`[pageerror] ${e.message}`));
    const diagnostics = () => `--- page ---\n${lines.slice(-40).join('\n')}`;
    await page.goto(`${servers.hostUrl}/?sandbox=${encodeURIComponent(servers.sandboxUrl)}`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
    const connect: ConnectOptions = { era: options.era ?? 'legacy', declareApps: options.declareApps ?? true };
    const tools = await within(
      15_000,
      `connecting the page's SDK client to ${mcpUrl}`,
      page.evaluate((o) => (globalThis as unknown as { mcpHost: HostApi }).mcpHost.connect(o), connect),
      diagnostics,
    );
    const viewCalls = () => page.evaluate(() => (globalThis as unknown as { mcpHost: HostApi }).mcpHost.viewCalls());
    const frame = page.frameLocator('#view').frameLocator('iframe');
    const host: AppHost = {
      page,
      tools,
      wire: servers.wire,
      diagnostics,
      async show(tool, args = {}, { timeoutMs = 20_000 } = {}) {
        const report = await within(
          timeoutMs,
          `showing ${tool}'s view (call, resources/read, sandbox, ui/initialize, tool input and result)`,
          page.evaluate(([t, a]) => (globalThis as unknown as { mcpHost: HostApi }).mcpHost.show(t, a), [tool, args] as const),
          diagnostics,
        );
        return { report, frame };
      },
      viewCalls,
      async viewCall(name, n = 1, timeoutMs = 10_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const done = (await viewCalls()).filter((c) => c.name === name && (c.result || c.error));
          if (done.length >= n) return done[n - 1];
          if (Date.now() > deadline) {
            throw new Error(
              `the view's call #${n} to ${name} was not answered within ${timeoutMs} ms (answered: ${done.length})\n${diagnostics()}`,
            );
          }
          await new Promise((r) => setTimeout(r, 50));
        }
      },
      async screenshot(name, { doc = false } = {}) {
        await mkdir(ARTIFACTS, { recursive: true });
        const file = path.join(ARTIFACTS, `${name}.png`);
        await page.locator('#view').screenshot({ path: file, animations: 'disabled' });
        if (doc && process.env.MCPHOST_DOC_SCREENSHOTS === '1') {
          await mkdir(DOCS, { recursive: true });
          await copyFile(file, path.join(DOCS, `${name}.png`));
        }
        return file;
      },
      async close() {
        hosts.delete(host);
        await page.close().catch(() => undefined);
        await servers.close();
      },
    };
    hosts.add(host);
    return host;
  }

  return {
    open,
    async close() {
      await Promise.allSettled([...hosts].map((h) => h.close()));
      await browser.close();
    },
  };
}
