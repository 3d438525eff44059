// The official ext-apps example servers (npm devDependencies) mounted through the real `mcphost
// serve`, for a 2025-era client over stdio and a 2026-era client over HTTP, each declaring the MCP
// Apps extension or not, next to the same servers spoken to directly: the tools with their
// `_meta.ui`, the `ui://` HTML byte-equal, results with their `_meta`, the same server mounted twice,
// and an app-only tool absent from model-facing lists but callable.
import { Client, type ClientOptions, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { connectStdio, startHttp, type HttpServer, type StdioSession } from '../helpers/mcp.js';
import { REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor, writeConfig } from '../upstream/helpers.js';

const MIME = 'text/html;profile=mcp-app';
const DECLARES: ClientOptions = { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } } } };
const example = (name: string) => path.join(REPO, `node_modules/@modelcontextprotocol/${name}/dist/index.js`);
const SERVERS = { clock: example('server-basic-vanillajs'), monitor: example('server-system-monitor'), map: example('server-map') };

const t = tempDir('mcphost-e2e-apps-');
writeConfig(t.dir, {
  servers: {
    ...Object.fromEntries(Object.entries(SERVERS).map(([name, file]) => [name, { command: process.execPath, args: [file, '--stdio'] }])),
    // The vanillajs example again: two servers publish ui://get-time/mcp-app.html.
    again: { command: process.execPath, args: [SERVERS.clock, '--stdio'] },
  },
});
const env = isolatedEnv(t.dir);

async function listed(client: Client, names: string[]): Promise<Tool[]> {
  return waitFor(async () => {
    const { tools } = await client.listTools();
    return names.every((n) => tools.some((x) => x.name === n)) ? tools : undefined;
  }, names.join(', '));
}

const bytes = (contents: unknown[]) => Buffer.from((contents[0] as { text: string }).text, 'utf8');

describe('official MCP Apps examples through mcphost serve', () => {
  const direct: Record<string, Client> = {};
  const tools: Record<string, Tool[]> = {};
  let http: HttpServer;
  const sessions: StdioSession[] = [];

  beforeAll(async () => {
    for (const [name, file] of Object.entries(SERVERS)) {
      direct[name] = new Client({ name: 'direct', version: '1' }, DECLARES);
      await direct[name].connect(new StdioClientTransport({ command: process.execPath, args: [file, '--stdio'] }));
      tools[name] = (await direct[name].listTools()).tools;
    }
    http = await startHttp([], { cwd: t.dir, env });
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled([...Object.values(direct).map((c) => c.close()), ...sessions.map((s) => s.close())]);
    await http?.stop();
  });

  const stdio = async (options?: ClientOptions) => {
    const session = await connectStdio([], { cwd: t.dir, env, client: options });
    sessions.push(session);
    return session.client;
  };
  const clients = {
    'a 2025-era stdio client': (options?: ClientOptions) => stdio(options),
    'a 2026-era HTTP client': (options?: ClientOptions) => http.connect('modern', undefined, options),
  };
  // What each server publishes under mcphost's names, the view URIs renamed where "clock" and "again" both publish one.
  const expected = (server: string, tool: Tool): Tool => {
    const renamed = (uri: string) => (server === 'clock' || server === 'again' ? uri.replace('ui://', `ui://${server}+`) : uri);
    const meta =
      tool._meta && JSON.parse(JSON.stringify(tool._meta).replace(/"(ui:\/\/[^"]+)"/g, (_m, uri: string) => `"${renamed(uri)}"`));
    return { ...tool, name: `${server}_${tool.name}`, ...(meta && { _meta: meta }) };
  };
  const all = () => [
    ...Object.entries(tools).flatMap(([server, list]) => list.map((tool) => expected(server, tool))),
    ...tools.clock.map((tool) => expected('again', tool)),
  ];

  for (const [who, connect] of Object.entries(clients)) {
    it(`${who} that declares the extension sees every tool with its _meta.ui, app-only ones included`, async () => {
      const client = await connect(DECLARES);
      expect(client.getServerCapabilities()?.extensions).toHaveProperty(['io.modelcontextprotocol/ui']);
      const want = all();
      const got = await listed(
        client,
        want.map((x) => x.name),
      );
      for (const tool of want) expect(got.find((x) => x.name === tool.name)).toEqual(tool);
      expect(got.find((x) => x.name === 'map_show-map')?._meta).toEqual(tools.map.find((x) => x.name === 'show-map')?._meta);
      expect(got.find((x) => x.name === 'monitor_poll-system-stats')?._meta).toEqual({ ui: { visibility: ['app'] } });
    });

    it(`${who} reads each ui:// view byte-equal to reading it directly; both copies of the clashing one under their new URIs`, async () => {
      const client = await connect(DECLARES);
      await listed(client, ['map_show-map', 'monitor_get-system-info', 'clock_get-time', 'again_get-time']);
      for (const [server, uri] of [
        ['monitor', 'ui://system-monitor/mcp-app.html'],
        ['map', 'ui://cesium-map/mcp-app.html'],
      ]) {
        const want = await direct[server].readResource({ uri });
        const got = await client.readResource({ uri });
        expect(got.contents).toEqual(want.contents);
        expect(bytes(got.contents).equals(bytes(want.contents))).toBe(true);
      }
      const want = await direct.clock.readResource({ uri: 'ui://get-time/mcp-app.html' });
      for (const uri of ['ui://clock+get-time/mcp-app.html', 'ui://again+get-time/mcp-app.html']) {
        const got = await client.readResource({ uri });
        expect(got.contents).toEqual([{ ...want.contents[0], uri }]);
        expect(bytes(got.contents).equals(bytes(want.contents))).toBe(true);
      }
    });

    it(`${who} gets results with their _meta, and calls both copies of the server mounted twice`, async () => {
      const client = await connect(DECLARES);
      await listed(client, ['map_show-map', 'clock_get-time', 'again_get-time']);
      const args = { west: 1, south: 2, east: 3, north: 4, label: 'here' };
      const want = await direct.map.callTool({ name: 'show-map', arguments: args });
      const got = await client.callTool({ name: 'map_show-map', arguments: args });
      expect(got.content).toEqual(want.content);
      expect(got._meta?.viewUUID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
      for (const name of ['clock_get-time', 'again_get-time']) {
        const time = await client.callTool({ name, arguments: {} });
        expect(Date.parse((time.structuredContent as { time: string }).time)).toBeGreaterThan(0);
      }
    });

    it(`${who} that declares nothing sees the tools without _meta and without the app-only tool, which it can still call`, async () => {
      const client = await connect();
      const want = all()
        .filter((x) => x.name !== 'monitor_poll-system-stats')
        .map(({ _meta: _dropped, ...rest }) => rest);
      const got = await listed(
        client,
        want.map((x) => x.name),
      );
      expect(got.map((x) => x.name).sort()).toEqual(want.map((x) => x.name).sort());
      for (const tool of want) expect(got.find((x) => x.name === tool.name)).toEqual(tool);
      expect((await client.listResources()).resources.every((r) => r._meta === undefined)).toBe(true);
      const polled = await client.callTool({ name: 'monitor_poll-system-stats', arguments: {} });
      expect(polled.structuredContent).toHaveProperty('memory');
    });
  }
});
