// The official MCP Apps example (server-basic-vanillajs, from npm) mounted in .mcprc and served by
// the real `mcphost serve --transport http`, rendered by the web host harness in headless Chromium
// (test/helpers/app-host): the host finds the view through mcphost's tools/list, reads its HTML
// through mcphost (byte-equal to the example's own file), the view shows the tool's real result, and
// its button's own call (`callServerTool({ name: 'get-time' })`, the server's name for the tool,
// which mcphost publishes as clock_get-time) goes through mcphost to the server and back.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchAppHosts, type AppHosts } from '../helpers/app-host/index.js';
import { isolatedEnv } from '../helpers/cli.js';
import { startHttp, type HttpServer } from '../helpers/mcp.js';
import { tempDir } from '../helpers/tmp.js';
import { whenListed, writeConfig } from '../upstream/helpers.js';

// The package's main is its server module (dist/server.js); its command line is dist/index.js beside it.
const dist = path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-basic-vanillajs'));
const exampleHtml = path.join(dist, 'mcp-app.html');
const mount = { command: process.execPath, args: [path.join(dist, 'index.js'), '--stdio'] };

/** `mcphost serve` with `servers` mounted, once every one of them is listed (a host page lists the tools once, at connect). */
async function serve(servers: Record<string, unknown>): Promise<HttpServer> {
  const t = tempDir('mcphost-view-mounted-');
  writeConfig(t.dir, { servers });
  const server = await startHttp([], { cwd: t.dir, env: isolatedEnv(t.dir) });
  await whenListed(
    await server.connect(),
    Object.keys(servers).map((name) => `${name}_get-time`),
  );
  return server;
}

let hosts: AppHosts;
let once: HttpServer;
let twice: HttpServer;

beforeAll(async () => {
  [hosts, once, twice] = await Promise.all([launchAppHosts(), serve({ clock: mount }), serve({ clock: mount, again: mount })]);
}, 60_000);

afterAll(async () => {
  await hosts?.close();
  await Promise.allSettled([once?.stop(), twice?.stop()]);
});

async function renderAndClick(url: string, era: 'legacy' | 'modern', tool: string, resourceUri: string, shot: string) {
  const host = await hosts.open(url, { era });
  try {
    expect(host.tools.find((t) => t.name === tool)?.resourceUri).toBe(resourceUri);
    const { report, frame } = await host.show(tool);
    expect(report.mimeType).toBe('text/html;profile=mcp-app');
    expect(report.html).toBe(await readFile(exampleHtml, 'utf8'));
    const time = (report.result.structuredContent as { time: string }).time;
    await expect.poll(() => frame.locator('#server-time').textContent(), { timeout: 10_000 }).toBe(time);

    await frame.locator('#get-time-btn').click();
    const call = await host.viewCall('get-time');
    expect(call.error, host.diagnostics()).toBeUndefined();
    const again = (call.result?.structuredContent as { time: string }).time;
    expect(Date.parse(again)).toBeGreaterThanOrEqual(Date.parse(time));
    // The view's call went out to mcphost under the server's own name, and came back into the view.
    expect(host.wire.some((w) => w.method === 'tools/call' && w.name === 'get-time')).toBe(true);
    await expect.poll(() => frame.locator('#server-time').textContent(), { timeout: 10_000 }).toBe(again);
    await host.screenshot(shot);
  } finally {
    await host.close();
  }
}

describe('the official vanillajs example through mcphost, in a browser', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`renders its view with get-time's result and relays the view's own call (${era} era)`, () =>
      renderAndClick(once.url, era, 'clock_get-time', 'ui://get-time/mcp-app.html', `mounted-get-time-${era}`));
  }

  it("renders the second copy of the example mounted twice under its renamed ui:// URI, and routes its view's call to that copy", async () => {
    // 2025 era over HTTP: the session is one client, whose read of again's view routes its view's get-time to again.
    await renderAndClick(twice.url, 'legacy', 'again_get-time', 'ui://again+get-time/mcp-app.html', 'mounted-twice-get-time');
    // Counted by backend in /metrics: the host's call and the view's both reached "again", none "clock".
    const metrics = await (await fetch(twice.url.replace(/\/mcp$/, '/metrics'))).text();
    const calls = (backend: string) =>
      metrics
        .split('\n')
        .filter((l) => l.startsWith('mcphost_tool_calls_total{') && l.includes(`backend="${backend}"`))
        .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
    expect(calls('again')).toBe(2);
    expect(calls('clock')).toBe(0);
  });
});
