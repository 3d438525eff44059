import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend, ToolError, type ToolDef } from '../../src/backend/index.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import { createServer } from '../../src/server/mcp-server.js';
import { attachListChanged } from '../../src/server/notify.js';
import { inlineBackend } from '../helpers/inline-backend.js';

const timeouts = { toolMs: 5_000, startMs: 5_000, shutdownMs: 1_000 };

/** A backend whose tool list grows at run time, as a mounted upstream's does. */
function growing() {
  const tools: ToolDef[] = [];
  const backend = defineBackend({
    name: 'grow',
    version: '1.0.0',
    description: 'tools appear at run time',
    tools: () => [
      {
        name: 'add_tool',
        description: 'adds a tool named by the argument',
        input: z.object({ name: z.string().regex(/^[a-z]+$/) }),
        handler: ({ name }, ctx) => {
          tools.push({ name, description: `added ${name}`, input: z.object({}), handler: () => `I am ${name}` });
          ctx.notifyListChanged('tools');
          return 'ok';
        },
      },
      ...tools,
    ],
  });
  return backend;
}

async function connect(registry: Registry) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createServer(registry, { name: 'mcphost', version: '0.0.0-test' });
  attachListChanged(registry, server);
  await server.connect(serverSide);
  const changed: string[] = [];
  const client = new Client(
    { name: 't', version: '1' },
    { listChanged: { tools: { debounceMs: 0, onChanged: (_e, tools) => changed.push((tools ?? []).map((x) => x.name).join(',')) } } },
  );
  await client.connect(clientSide);
  return { client, changed };
}

describe('MCP server over the registry', () => {
  it('notifies clients when a backend says its tools changed, and serves the new tool', async () => {
    const registry = await Registry.create([inlineBackend('grow', growing())], { logger: silentLogger, timeouts });
    const { client, changed } = await connect(registry);
    expect((await client.listTools()).tools.map((x) => x.name)).toEqual(['grow_add_tool']);
    await client.callTool({ name: 'grow_add_tool', arguments: { name: 'fresh' } });
    await expect.poll(() => changed).toEqual(['grow_add_tool,grow_fresh']);
    expect(await client.callTool({ name: 'grow_fresh', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'I am fresh' }] });
    await client.close();
    await registry.close();
  });

  it('declares tools, resources, prompts, completions and logging, and lists backends in the instructions', async () => {
    const registry = await Registry.create([inlineBackend('grow', growing())], { logger: silentLogger, timeouts });
    const { client } = await connect(registry);
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: { listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    });
    expect(client.getInstructions()).toContain('- grow: tools appear at run time');
    await client.close();
    await registry.close();
  });

  it('skips a tool whose public name clashes when lists change at run time, keeping the first', async () => {
    const a = growing();
    const b = defineBackend({ name: 'grow_fresh', version: '1', description: 'clash', tools: [] });
    const registry = await Registry.create(
      [
        inlineBackend('grow', a, 'a'),
        inlineBackend('grow_x', { ...b, tools: [{ name: 'y', description: 'y', input: z.object({}), handler: () => 'y' }] }, 'b'),
      ],
      { logger: silentLogger, timeouts },
    );
    await registry.callTool('grow_add_tool', { name: 'x' });
    await registry.callTool('grow_add_tool', { name: 'y' });
    const names = (await registry.tools()).map((x) => `${x.plugin}:${x.publicName}`);
    expect(names.filter((x) => x.endsWith('grow_x_y'))).toEqual(['grow_x:grow_x_y']);
    await registry.close();
  });
});

describe('error results and output schemas', () => {
  it('reaches an SDK client that validates output schemas with the handler’s own message and code', async () => {
    const backend = defineBackend({
      name: 'shaped',
      version: '1.0.0',
      description: 'a tool with an output schema that fails',
      tools: [
        {
          name: 'read',
          description: 'reads, or refuses',
          input: z.object({ ok: z.boolean() }),
          output: z.object({ bytes: z.string() }),
          handler: ({ ok }) => {
            if (!ok) throw new ToolError('Provider is not writable: set plugins.shaped.writable: true', { code: -32003 });
            return { bytes: 'ab' };
          },
        },
      ],
    });
    const registry = await Registry.create([inlineBackend('shaped', backend)], { logger: silentLogger, timeouts });
    const { client } = await connect(registry);
    await client.listTools(); // the client now knows the output schema and validates against it
    expect(await client.callTool({ name: 'shaped_read', arguments: { ok: true } })).toMatchObject({ structuredContent: { bytes: 'ab' } });
    const failed = await client.callTool({ name: 'shaped_read', arguments: { ok: false } });
    expect(failed).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Provider is not writable: set plugins.shaped.writable: true' }],
      _meta: { 'mcphost/error': { code: -32003 } },
    });
    expect(failed.structuredContent).toBeUndefined();
    await registry.close();
  });
});
