// MCP Apps servers mounted from .mcprc, served in-process (the `serve` path) to the official SDK
// client of both eras, next to the same servers spoken to directly: the official ext-apps examples
// from npm over stdio (they speak 2025-11-25), and an app server built with ext-apps' helpers
// (fixtures/app-server.mjs) over stdio and HTTP in the 2026-07-28 era. What a client that declares
// the extension sees, what one that declares nothing sees, how views' URIs are renamed when two
// servers publish the same one, and how a view's call by its server's own tool name is routed.
import { Client, type ClientOptions, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths.js';
import { hostInProcess } from '../helpers/in-process.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/tmp.js';
import { textOf, waitFor, writeConfig } from './helpers.js';

const MIME = 'text/html;profile=mcp-app';
const UI = 'io.modelcontextprotocol/ui';
const DECLARES: ClientOptions = { capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } } };
const example = (name: string) => path.join(REPO, `node_modules/@modelcontextprotocol/${name}/dist/index.js`);
const CLOCK = example('server-basic-vanillajs');
const MONITOR = example('server-system-monitor');
const MAP = example('server-map');
const APP = path.join(REPO, 'test/upstream/fixtures/app-server.mjs');

const eras = ['legacy', 'modern'] as const;
type Host = Awaited<ReturnType<typeof hostInProcess>>;

/** The server spoken to directly, as a client that declares the extension: what mcphost must pass on. */
async function direct(args: string[], env: Record<string, string> = {}) {
  const client = new Client({ name: 'direct', version: '1' }, DECLARES);
  await client.connect(new StdioClientTransport({ command: process.execPath, args, env: { ...env, PATH: process.env.PATH ?? '' } }));
  return client;
}

async function listedAll(client: Client, names: string[]): Promise<Tool[]> {
  return waitFor(async () => {
    const { tools } = await client.listTools();
    return names.every((n) => tools.some((t) => t.name === n)) ? tools : undefined;
  }, names.join(', '));
}

const withoutMeta = ({ _meta: _dropped, ...rest }: Tool) => rest;

describe('the official ext-apps examples mounted once', () => {
  const tmp = tempDir('mcphost-apps-');
  let host: Host;
  const directs: Record<string, Client> = {};
  const lists: Record<string, Tool[]> = {};

  beforeAll(async () => {
    writeConfig(tmp.dir, {
      servers: {
        clock: { command: process.execPath, args: [CLOCK, '--stdio'] },
        monitor: { command: process.execPath, args: [MONITOR, '--stdio'] },
        map: { command: process.execPath, args: [MAP, '--stdio'] },
      },
    });
    host = await hostInProcess({ cwd: tmp.dir });
    for (const [name, file] of [
      ['clock', CLOCK],
      ['monitor', MONITOR],
      ['map', MAP],
    ]) {
      directs[name] = await direct([file, '--stdio']);
      lists[name] = (await directs[name].listTools()).tools;
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(Object.values(directs).map((c) => c.close()));
    await host?.close();
  });

  const published = () =>
    Object.entries(lists).flatMap(([server, tools]) => tools.map((tool) => ({ ...tool, name: `${server}_${tool.name}` })));

  for (const era of eras) {
    it(`lists a ${era}-era client that declares the extension every tool with its _meta as the server gave it`, async () => {
      const client = await host.connect(era, { options: DECLARES });
      const expected = published();
      const tools = await listedAll(
        client,
        expected.map((t) => t.name),
      );
      for (const want of expected) expect(tools.find((t) => t.name === want.name)).toEqual(want);
      // The view of get-time under both spellings, and the app-only tool with its visibility.
      expect(tools.find((t) => t.name === 'clock_get-time')?._meta).toEqual({
        ui: { resourceUri: 'ui://get-time/mcp-app.html' },
        'ui/resourceUri': 'ui://get-time/mcp-app.html',
      });
      expect(tools.find((t) => t.name === 'monitor_poll-system-stats')?._meta).toMatchObject({ ui: { visibility: ['app'] } });
    });

    it(`lists a ${era}-era client that declares nothing the tools without _meta, and no app-only tool`, async () => {
      const client = await host.connect(era);
      const expected = published().filter((t) => t.name !== 'monitor_poll-system-stats');
      const tools = await listedAll(
        client,
        expected.map((t) => t.name),
      );
      expect(tools.map((t) => t.name).sort()).toEqual(expected.map((t) => t.name).sort());
      for (const want of expected) expect(tools.find((t) => t.name === want.name)).toEqual(withoutMeta(want));
      const resources = (await client.listResources()).resources;
      expect(resources.every((r) => r._meta === undefined)).toBe(true);
    });

    it(`reads each ui:// view for a ${era}-era client byte-equal to reading it directly, _meta included`, async () => {
      const client = await host.connect(era, { options: DECLARES });
      await listedAll(client, ['clock_get-time', 'map_show-map']);
      for (const [server, uri] of [
        ['clock', 'ui://get-time/mcp-app.html'],
        ['monitor', 'ui://system-monitor/mcp-app.html'],
        ['map', 'ui://cesium-map/mcp-app.html'],
      ]) {
        const want = await directs[server].readResource({ uri });
        const got = await client.readResource({ uri });
        expect(got.contents).toEqual(want.contents);
        const text = (c: unknown) => Buffer.from((c as { text: string }).text, 'utf8');
        expect(text(got.contents[0]).equals(text(want.contents[0]))).toBe(true);
        expect(got.contents[0]).toMatchObject({ mimeType: MIME });
      }
      const listed = (await client.listResources()).resources;
      const mapView = (await directs.map.listResources()).resources.find((r) => r.uri === 'ui://cesium-map/mcp-app.html');
      expect(listed.find((r) => r.uri === 'ui://cesium-map/mcp-app.html')).toEqual(mapView);
    });

    it(`answers a ${era}-era client results with their _meta (server-map's viewUUID)`, async () => {
      for (const options of [DECLARES, {}]) {
        const client = await host.connect(era, { options });
        await listedAll(client, ['map_show-map']);
        const want = await directs.map.callTool({ name: 'show-map', arguments: { west: 1, south: 2, east: 3, north: 4 } });
        const got = await client.callTool({ name: 'map_show-map', arguments: { west: 1, south: 2, east: 3, north: 4 } });
        expect(got.content).toEqual(want.content);
        // The server's own keys (a 2026-era answer also carries the protocol's io.modelcontextprotocol/serverInfo).
        const own = (meta: object | undefined) => Object.keys(meta ?? {}).filter((k) => !k.startsWith('io.modelcontextprotocol/'));
        expect(own(got._meta)).toEqual(own(want._meta));
        expect(got._meta?.viewUUID).toMatch(/^[0-9a-f-]{36}$/);
        const time = await client.callTool({ name: 'clock_get-time', arguments: {} });
        expect((time.structuredContent as { time: string }).time).toBe(textOf(time));
      }
    });

    it(`calls the app-only tool for a ${era}-era client by its published name and, as its view does, by its own`, async () => {
      const client = await host.connect(era);
      await listedAll(client, ['monitor_get-system-info']);
      for (const name of ['monitor_poll-system-stats', 'poll-system-stats']) {
        const result = await client.callTool({ name, arguments: {} });
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(result.structuredContent).toHaveProperty('memory');
      }
      // Its view's own call of get-time (the vanillajs view calls callServerTool({ name: 'get-time' })).
      const time = await client.callTool({ name: 'get-time', arguments: {} });
      expect(Date.parse((time.structuredContent as { time: string }).time)).toBeGreaterThan(0);
    });
  }
});

describe('two servers publishing the same ui:// URI (the vanillajs example mounted twice)', () => {
  const tmp = tempDir('mcphost-apps-twice-');
  let host: Host;
  const served: string[] = [];

  beforeAll(async () => {
    writeConfig(tmp.dir, {
      servers: {
        clock: { command: process.execPath, args: [CLOCK, '--stdio'] },
        clock2: { command: process.execPath, args: [CLOCK, '--stdio'] },
      },
    });
    host = await hostInProcess({ cwd: tmp.dir });
    host.registry.onCall((record) => served.push(record.plugin));
  }, 60_000);
  afterAll(() => host?.close());

  for (const era of eras) {
    it(`renames the URI in both, scheme kept, and rewrites every reference for a ${era}-era client`, async () => {
      const client = await host.connect(era, { options: DECLARES });
      const tools = await listedAll(client, ['clock_get-time', 'clock2_get-time']);
      for (const name of ['clock', 'clock2']) {
        const uri = `ui://${name}+get-time/mcp-app.html`;
        expect(tools.find((t) => t.name === `${name}_get-time`)?._meta).toEqual({ ui: { resourceUri: uri }, 'ui/resourceUri': uri });
        const read = await client.readResource({ uri });
        expect(read.contents).toHaveLength(1);
        expect(read.contents[0]).toMatchObject({ uri, mimeType: MIME });
        expect((read.contents[0] as { text: string }).text).toContain('<html');
      }
      const uris = (await client.listResources()).resources.map((r) => r.uri).sort();
      expect(uris).toEqual(['ui://clock+get-time/mcp-app.html', 'ui://clock2+get-time/mcp-app.html']);
      await expect(client.readResource({ uri: 'ui://get-time/mcp-app.html' })).rejects.toThrow(/not found/);
    });
  }

  it("routes a view's call by the server's own tool name to the server whose view the client read, else refuses", async () => {
    const client = await host.connect('legacy', { options: DECLARES });
    await listedAll(client, ['clock_get-time', 'clock2_get-time']);
    await expect(client.callTool({ name: 'get-time', arguments: {} })).rejects.toThrow(/clock_get-time, clock2_get-time/);
    await client.readResource({ uri: 'ui://clock2+get-time/mcp-app.html' });
    served.length = 0;
    const time = await client.callTool({ name: 'get-time', arguments: {} });
    expect(time.isError).toBeFalsy();
    expect(served).toEqual(['clock2']);
    // Another client has read no view: its call by that name is still refused.
    const other = await host.connect('legacy', { options: DECLARES });
    await expect(other.callTool({ name: 'get-time', arguments: {} })).rejects.toThrow(/call one by its published name/);
  });
});

describe('an app server built with ext-apps, mounted in the 2026-07-28 era over stdio and HTTP, and twice', () => {
  const tmp = tempDir('mcphost-apps-modern-');
  let host: Host;
  let http: FixtureServer;
  let viaHttp: Client;

  beforeAll(async () => {
    http = await startFixtureServer(APP, ['http'], 'app server');
    writeConfig(tmp.dir, {
      servers: {
        apps: { command: process.execPath, args: [APP, 'stdio'], env: { FIXTURE_NAME: 'apps' }, protocol: '2026-07-28' },
        web: { url: `http://127.0.0.1:${http.port}/mcp`, protocol: '2026-07-28' },
        old: { command: process.execPath, args: [APP, 'stdio'], env: { FIXTURE_NAME: 'old' } },
      },
    });
    host = await hostInProcess({ cwd: tmp.dir });
    viaHttp = new Client({ name: 'direct', version: '1' }, { ...DECLARES, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    await viaHttp.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${http.port}/mcp`)));
  }, 60_000);
  afterAll(async () => {
    await viaHttp?.close();
    await host?.close();
    await http?.stop();
  });

  it('hands a 2026-era server each client’s own declaration, and a 2025-era one mcphost’s', async () => {
    for (const era of eras) {
      const declaring = await host.connect(era, { options: DECLARES });
      const silent = await host.connect(era);
      await listedAll(declaring, ['apps_show', 'web_show', 'old_show']);
      const ui = async (client: Client, name: string) =>
        ((await client.callTool({ name, arguments: {} })).structuredContent as { ui: unknown }).ui;
      expect(await ui(declaring, 'apps_show')).toEqual({ mimeTypes: [MIME] });
      expect(await ui(declaring, 'web_show')).toEqual({ mimeTypes: [MIME] });
      expect(await ui(silent, 'apps_show')).toBeNull();
      expect(await ui(silent, 'web_show')).toBeNull();
      // One connection serves every client of a 2025-era server: it was told what mcphost relays.
      expect(await ui(silent, 'old_show')).toEqual({ mimeTypes: [MIME] });
    }
  });

  it('renames the view the three publish, in tool _meta, results, resource links and reads; the HTML stays byte for byte', async () => {
    const want = (await viaHttp.readResource({ uri: 'ui://fixture/view.html' })).contents[0] as { text: string; _meta: unknown };
    for (const era of eras) {
      const client = await host.connect(era, { options: DECLARES });
      const tools = await listedAll(client, ['apps_show', 'web_show', 'old_show', 'web_poll']);
      for (const name of ['apps', 'web', 'old']) {
        const uri = `ui://${name}+fixture/view.html`;
        expect(tools.find((t) => t.name === `${name}_show`)?._meta).toMatchObject({ ui: { resourceUri: uri }, 'ui/resourceUri': uri });
        const result = await client.callTool({ name: `${name}_show`, arguments: {} });
        expect(result._meta).toMatchObject({ 'fixture/view': uri });
        expect(result.content).toEqual([
          { type: 'text', text: `shown by ${name === 'web' ? 'app' : name}` },
          { type: 'resource_link', uri, name: 'view', mimeType: MIME },
        ]);
        const read = await client.readResource({ uri });
        expect(read.contents).toEqual([{ uri, mimeType: MIME, text: want.text, _meta: want._meta }]);
      }
      const listed = (await client.listResources()).resources.filter((r) => r.uri.startsWith('ui://'));
      expect(listed.map((r) => r.uri).sort()).toEqual([
        'ui://apps+fixture/view.html',
        'ui://old+fixture/view.html',
        'ui://web+fixture/view.html',
      ]);
      expect(listed.every((r) => r._meta !== undefined)).toBe(true);
    }
  });
});
