// The browser harness itself, against the official MCP Apps example served directly (no mcphost
// in between): the host finds the tool's view, renders it in the double-iframe sandbox with the
// tool's real result, and a call made from inside the view reaches the server and comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { launchAppHosts, type AppHosts } from '../helpers/app-host/index.js';
import { startExampleAppServer, type ExampleServer } from '../helpers/app-host/example-server.js';

const exampleHtml = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-basic-vanillajs')),
  'mcp-app.html',
);

let hosts: AppHosts;
let server: ExampleServer;

beforeAll(async () => {
  [hosts, server] = await Promise.all([launchAppHosts(), startExampleAppServer()]);
}, 60_000);

afterAll(async () => {
  await hosts?.close();
  await server?.close();
});

describe('app host harness', () => {
  // The example serves the 2025 era only (its main.ts uses the SDK's 2025 transport); mcphost serves both.
  for (const era of ['legacy'] as const) {
    it(`renders the example's get-time view with its result and relays the view's own call (${era} era)`, async () => {
      const host = await hosts.open(server.url, { era });
      try {
        expect(host.tools.find((t) => t.name === 'get-time')?.resourceUri).toBe('ui://get-time/mcp-app.html');
        const { report, frame } = await host.show('get-time');
        expect(report.mimeType).toBe('text/html;profile=mcp-app');
        expect(report.html).toBe(await readFile(exampleHtml, 'utf8'));
        const time = (report.result.structuredContent as { time: string }).time;
        await expect.poll(() => frame.locator('#server-time').textContent(), { timeout: 10_000 }).toBe(time);

        // The view's button calls get-time itself: through the bridge, the page's client and the server.
        const before = host.wire.filter((w) => w.method === 'tools/call').length;
        await frame.locator('#get-time-btn').click();
        const call = await host.viewCall('get-time');
        const again = (call.result?.structuredContent as { time: string }).time;
        expect(Date.parse(again)).toBeGreaterThanOrEqual(Date.parse(time));
        expect(host.wire.filter((w) => w.method === 'tools/call' && w.name === 'get-time')).toHaveLength(before + 1);
        await expect.poll(() => frame.locator('#server-time').textContent(), { timeout: 10_000 }).toBe(again);
        await host.screenshot(`example-get-time-${era}`);
      } finally {
        await host.close();
      }
    });
  }

  it('reports a tool without a view, and a server that is not there, with what went wrong', async () => {
    const host = await hosts.open(server.url);
    try {
      await expect(host.show('no-such-tool')).rejects.toThrow(/no tool no-such-tool \(listed: get-time/);
    } finally {
      await host.close();
    }
    await expect(hosts.open('http://127.0.0.1:9/mcp')).rejects.toThrow(/MCP server unreachable|connecting the page's SDK client/);
  });
});
