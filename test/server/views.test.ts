// A plugin's MCP Apps views (`io.modelcontextprotocol/ui`): what a client that renders them is
// listed (each tool's `_meta`, the tools for views only, the resource's `_meta`), what a client that
// does not is listed (what it was before views were relayed), and what both get from a call and a read.
import { Client, InMemoryTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { toolSurface } from '../../src/discover/surface.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import { createServer } from '../../src/server/mcp-server.js';
import { serveOnStdio } from '../../src/server/stdio.js';
import { inlineBackend } from '../helpers/inline-backend.js';
import { StreamPairTransport } from '../../src/app/loopback.js';

const timeouts = { toolMs: 5_000, startMs: 5_000, shutdownMs: 1_000 };
const MIME = 'text/html;profile=mcp-app';
const HTML = '<!doctype html><html><body><p id="n">é – 𝄞</p><script>/* \u2028 */</script></body></html>\n';
const DECLARES: ClientOptions = { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } } } };
const CSP = { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true, domain: 'x.example.com' } };

const viewed = defineBackend({
  name: 'hexv',
  version: '1.0.0',
  description: 'a plugin with a view',
  tools: [
    {
      name: 'dump',
      description: 'bytes as hex',
      input: z.object({ offset: z.number().int().default(0) }),
      _meta: { ui: { resourceUri: 'ui://hexv/dump.html' }, 'ui/resourceUri': 'ui://hexv/dump.html', 'example/other': 1 },
      handler: ({ offset }) => ({
        content: [{ type: 'text', text: `at ${offset}` }],
        structuredContent: { offset },
        _meta: { viewUUID: 'u-1', nested: { keep: [1, 'two'] } },
      }),
    },
    {
      name: 'page',
      description: 'the next page, for the view',
      input: z.object({}),
      _meta: { ui: { resourceUri: 'ui://hexv/dump.html', visibility: ['app'] } },
      handler: () => 'page 2',
    },
    { name: 'plain', description: 'no view', input: z.object({}), handler: () => 'plain' },
  ],
  resources: [
    {
      uri: 'ui://hexv/dump.html',
      name: 'dump view',
      mimeType: MIME,
      _meta: CSP,
      read: (uri) => ({ contents: [{ uri, mimeType: MIME, text: HTML, _meta: CSP }] }),
    },
  ],
});

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function registry(): Promise<Registry> {
  const r = await Registry.create([inlineBackend('hexv', viewed)], { logger: silentLogger, timeouts });
  cleanups.push(() => r.close());
  return r;
}

async function connect(r: Registry, era: 'legacy' | 'modern', options: ClientOptions = {}): Promise<Client> {
  if (era === 'modern') {
    const transport = new StreamPairTransport();
    const serving = serveOnStdio(r, { name: 'mcphost', version: '0' }, silentLogger, transport.serverSide);
    const client = new Client({ name: 't', version: '1' }, { ...options, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(transport);
    cleanups.push(async () => {
      await client.close();
      await serving.close();
    });
    return client;
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createServer(r, { name: 'mcphost', version: '0' });
  await server.connect(serverSide);
  const client = new Client({ name: 't', version: '1' }, options);
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return client;
}

describe.each(['legacy', 'modern'] as const)('views of a plugin, %s era', (era) => {
  it('lists a client that declares the extension every tool with its _meta, app-only tools included', async () => {
    const client = await connect(await registry(), era, DECLARES);
    expect(client.getServerCapabilities()?.extensions).toHaveProperty(['io.modelcontextprotocol/ui']);
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t._meta])).toEqual([
      ['hexv_dump', { ui: { resourceUri: 'ui://hexv/dump.html' }, 'ui/resourceUri': 'ui://hexv/dump.html', 'example/other': 1 }],
      ['hexv_page', { ui: { resourceUri: 'ui://hexv/dump.html', visibility: ['app'] } }],
      ['hexv_plain', undefined],
    ]);
    const { resources } = await client.listResources();
    expect(resources).toEqual([{ uri: 'ui://hexv/dump.html', name: 'dump view', mimeType: MIME, _meta: CSP }]);
  });

  it('lists a client that declares nothing what it was listed before: no _meta, no tool for views only', async () => {
    const client = await connect(await registry(), era);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['hexv_dump', 'hexv_plain']);
    expect(tools.every((t) => t._meta === undefined)).toBe(true);
    expect((await client.listResources()).resources).toEqual([{ uri: 'ui://hexv/dump.html', name: 'dump view', mimeType: MIME }]);
  });

  it("answers any client a call with the handler's _meta unchanged, and a tool for views only by its name", async () => {
    for (const options of [DECLARES, {}]) {
      const client = await connect(await registry(), era, options);
      const result = await client.callTool({ name: 'hexv_dump', arguments: { offset: 16 } });
      expect(result).toMatchObject({ structuredContent: { offset: 16 }, _meta: { viewUUID: 'u-1', nested: { keep: [1, 'two'] } } });
      expect(await client.callTool({ name: 'hexv_page', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'page 2' }] });
    }
  });

  it('reads the view as text/html;profile=mcp-app, byte for byte, with its _meta', async () => {
    const client = await connect(await registry(), era, DECLARES);
    const { contents } = await client.readResource({ uri: 'ui://hexv/dump.html' });
    expect(contents).toEqual([{ uri: 'ui://hexv/dump.html', mimeType: MIME, text: HTML, _meta: CSP }]);
    expect(Buffer.from((contents[0] as { text: string }).text)).toEqual(Buffer.from(HTML));
  });
});

describe('views in discover mode', () => {
  it('keeps a tool for views only out of find and describe, and still calls it', async () => {
    const r = await registry();
    toolSurface(r).configure({ mode: 'discover', pinned: ['hexv_dump'] });
    const client = await connect(r, 'legacy', DECLARES);
    const listed = (await client.listTools()).tools;
    expect(listed.find((t) => t.name === 'hexv_dump')?._meta).toMatchObject({ ui: { resourceUri: 'ui://hexv/dump.html' } });
    const found = await client.callTool({ name: 'mcphost_find_tools', arguments: { query: 'next page for the view', limit: 50 } });
    expect((found.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).not.toContain('hexv_page');
    const described = await client.callTool({ name: 'mcphost_describe_tool', arguments: { name: 'hexv_page' } });
    expect(described.isError).toBe(true);
    const dump = await client.callTool({ name: 'mcphost_describe_tool', arguments: { name: 'hexv_dump' } });
    expect(dump.structuredContent).not.toHaveProperty('_meta');
    const called = await client.callTool({ name: 'mcphost_call_tool', arguments: { name: 'hexv_page' } });
    expect(called).toMatchObject({ content: [{ type: 'text', text: 'page 2' }] });
  });
});
