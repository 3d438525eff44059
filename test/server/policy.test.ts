// A named client's policy over a real 127.0.0.1 socket, spoken to by the SDK client in both eras and
// both tool modes: it is listed, finds and describes only the tools its globs allow (deny winning);
// a call of any other, direct or through mcphost_call_tool, is refused with an error naming the
// client and the rule; resources and prompts follow the backend, while a client without rules (the
// --token) sees everything.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { namedClientsSchema } from '../../src/config/named-clients.js';
import { toolSurface } from '../../src/discover/surface.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import { tokenHash } from '../../src/server/auth/client-tokens.js';
import type { HttpServing } from '../../src/server/http.js';
import { inlineBackend } from '../helpers/inline-backend.js';
import { clientAccess } from '../../src/registry/access.js';
import { HostClient } from '../../src/registry/clients.js';
import { keepReadable } from '../../src/server/subscriptions.js';
import { serveOnLoopback } from '../helpers/http-serve.js';

const tool = (name: string, description: string) => ({ name, description, input: z.object({}), handler: () => `${name} ran` });
const docs = defineBackend({
  name: 'docs',
  version: '1.0.0',
  description: 'documentation search',
  tools: [tool('search', 'search the documentation'), tool('secret_notes', 'search the private documentation notes')],
  resources: [{ uri: 'docs://index', name: 'index', read: () => 'the docs index', subscribe: () => () => undefined }],
  prompts: [{ name: 'explain', get: () => 'explain the docs' }],
});
const hex = defineBackend({
  name: 'hex',
  version: '1.0.0',
  description: 'hex editor',
  tools: [tool('write_bytes', 'write bytes into the open file')],
  resources: [{ uri: 'hex://file', name: 'file', read: () => 'the whole file', subscribe: () => () => undefined }],
  resourceTemplates: [
    { uriTemplate: 'hex://offset/{n}', name: 'offset', read: (uri: string) => uri, complete: { n: (v: string) => [`${v}0`, `${v}1`] } },
  ],
  prompts: [{ name: 'patch', get: () => 'patch the file' }],
});

const open: Array<{ serving: HttpServing; registry: Registry; clients: Client[] }> = [];
afterEach(async () => {
  for (const { serving, registry, clients } of open.splice(0)) {
    await Promise.allSettled(clients.map((c) => c.close()));
    await serving.close();
    await registry.close();
  }
});

async function serve(mode: 'flat' | 'discover') {
  const registry = await Registry.create([inlineBackend('docs', docs), inlineBackend('hex', hex)], {
    logger: silentLogger,
    timeouts: { toolMs: 5_000, startMs: 5_000, shutdownMs: 1_000 },
  });
  toolSurface(registry).configure({ mode, pinned: [] });
  const clients = namedClientsSchema.parse({ ci: { token: tokenHash('ci-token'), tools: { allow: ['docs_*'], deny: ['docs_secret_*'] } } });
  const serving = await serveOnLoopback(registry, { clients, token: 'full-token' });
  const entry = { serving, registry, clients: [] as Client[] };
  open.push(entry);
  return async (token: string, era: 'legacy' | 'modern') => {
    const client = new Client(
      { name: 'policy-test', version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serving.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    entry.clients.push(client);
    return client;
  };
}

async function refusal(work: Promise<unknown>): Promise<{ code?: number; message: string; data?: unknown }> {
  try {
    await work;
  } catch (error) {
    const e = error as { code?: number; message: string; data?: unknown };
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error('expected a refusal');
}

const texts = (result: unknown) => (result as { content: Array<{ text?: string }> }).content.map((c) => c.text);

for (const era of ['legacy', 'modern'] as const) {
  describe(`a named client's policy (${era} era)`, () => {
    it('lists only the tools its globs allow, and refuses a call of any other naming the client and the rule', async () => {
      const connect = await serve('flat');
      const ci = await connect('ci-token', era);
      expect((await ci.listTools()).tools.map((t) => t.name)).toEqual(['docs_search']);
      expect(texts(await ci.callTool({ name: 'docs_search', arguments: {} }))).toEqual(['search ran']);
      const notAllowed = await refusal(ci.callTool({ name: 'hex_write_bytes', arguments: {} }));
      expect(notAllowed.code).toBe(-32003);
      expect(notAllowed.message).toMatch(/client ci may not use tool hex_write_bytes: not in http\.clients\.ci\.tools\.allow \[docs_\*\]/);
      const denied = await refusal(ci.callTool({ name: 'docs_secret_notes', arguments: {} }));
      expect(denied.message).toMatch(
        /client ci may not use tool docs_secret_notes: denied by http\.clients\.ci\.tools\.deny "docs_secret_\*"/,
      );
      // The client without rules is served everything.
      const full = await connect('full-token', era);
      expect((await full.listTools()).tools.map((t) => t.name).sort()).toEqual(['docs_search', 'docs_secret_notes', 'hex_write_bytes']);
      expect(texts(await full.callTool({ name: 'hex_write_bytes', arguments: {} }))).toEqual(['write_bytes ran']);
    });

    it('reads resources and gets prompts only of the backends whose tools it may call', async () => {
      const connect = await serve('flat');
      const ci = await connect('ci-token', era);
      expect((await ci.listResources()).resources.map((r) => r.uri)).toEqual(['docs://index']);
      expect((await ci.listPrompts()).prompts.map((p) => p.name)).toEqual(['docs_explain']);
      expect((await ci.readResource({ uri: 'docs://index' })).contents).toEqual([expect.objectContaining({ text: 'the docs index' })]);
      const read = await refusal(ci.readResource({ uri: 'hex://file' }));
      expect(read.message).toMatch(/client ci may not use backend hex: not in http\.clients\.ci\.backends\.allow/);
      expect((await refusal(ci.getPrompt({ name: 'hex_patch' }))).message).toMatch(/client ci may not use backend hex/);
      expect((await ci.listResourceTemplates()).resourceTemplates).toEqual([]);
      const complete = (client: Client) =>
        client.complete({ ref: { type: 'ref/resource', uri: 'hex://offset/{n}' }, argument: { name: 'n', value: '1' } });
      expect((await complete(ci)).completion.values).toEqual([]);
      const full = await connect('full-token', era);
      expect((await full.readResource({ uri: 'hex://file' })).contents).toEqual([expect.objectContaining({ text: 'the whole file' })]);
      expect((await complete(full)).completion.values).toEqual(['10', '11']);
    });

    if (era === 'legacy')
      it('subscribes only to resources it may read', async () => {
        const connect = await serve('flat');
        const ci = await connect('ci-token', era);
        await ci.subscribeResource({ uri: 'docs://index' });
        expect(await refusal(ci.subscribeResource({ uri: 'hex://file' }))).toMatchObject({
          code: -32003,
          message: expect.stringMatching(/client ci may not use backend hex/),
        });
        const full = await connect('full-token', era);
        await full.subscribeResource({ uri: 'hex://file' });
      });

    it('in discover mode finds, describes and calls through mcphost_call_tool only what it may call', async () => {
      const connect = await serve('discover');
      const ci = await connect('ci-token', era);
      const find = async (client: Client, query: string) =>
        (
          (await client.callTool({ name: 'mcphost_find_tools', arguments: { query } })).structuredContent as {
            tools: Array<{ name: string }>;
          }
        ).tools.map((t) => t.name);
      expect(await find(ci, 'write bytes into the file')).not.toContain('hex_write_bytes');
      expect(await find(ci, 'private documentation notes')).not.toContain('docs_secret_notes');
      expect(await find(ci, 'search documentation')).toContain('docs_search');
      const full = await connect('full-token', era);
      expect(await find(full, 'write bytes into the file')).toContain('hex_write_bytes');
      const described = await refusal(ci.callTool({ name: 'mcphost_describe_tool', arguments: { name: 'hex_write_bytes' } }));
      expect(described.message).toMatch(/client ci may not use tool hex_write_bytes/);
      const through = await refusal(ci.callTool({ name: 'mcphost_call_tool', arguments: { name: 'hex_write_bytes', arguments: {} } }));
      expect(through).toMatchObject({ code: -32003, data: { client: 'ci', tool: 'hex_write_bytes' } });
      const called = await ci.callTool({ name: 'mcphost_call_tool', arguments: { name: 'docs_search', arguments: {} } });
      expect(texts(called)).toEqual(['search ran']);
    });
  });
}

describe("a named client's subscriptions/listen (2026 era)", () => {
  it('has the resources its policy keeps from it taken off the request, and keeps the rest', async () => {
    const registry = await Registry.create([inlineBackend('docs', docs), inlineBackend('hex', hex)], {
      logger: silentLogger,
      timeouts: { toolMs: 5_000, startMs: 5_000, shutdownMs: 1_000 },
    });
    const identity = { kind: 'token', subject: 'ci', client: 'ci' } as const;
    const rules = namedClientsSchema.parse({ ci: { token: tokenHash('x'), tools: { allow: ['docs_*'] } } });
    const client = new HostClient('http', { identity, access: clientAccess(rules)(identity) });
    const message = {
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: ['docs://index', 'hex://file', 'nowhere://x'] } },
    };
    expect(await keepReadable(registry, message, client)).toEqual(['docs://index', 'nowhere://x']);
    expect(message.params.notifications.resourceSubscriptions).toEqual(['docs://index', 'nowhere://x']);
    await registry.close();
  });
});
