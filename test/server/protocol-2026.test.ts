// What a client of either protocol generation is owed beyond tools/call, over a real 127.0.0.1
// socket: tasks/get, tasks/update and tasks/cancel refused with -32021 when the request does not
// declare the tasks extension (SEP-2663), resources/subscribe and unsubscribe with updates from a
// backend that watches the resource (and -32602 for one that cannot), and list changes reaching a
// 2026-era `subscriptions/listen` stream as well as a 2025-era session.
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend, type BackendContext } from '../../src/backend/index.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import { serveOnHttp, type HttpServing } from '../../src/server/http.js';
import { inlineBackend } from '../helpers/inline-backend.js';

const timeouts = { toolMs: 5_000, startMs: 5_000, shutdownMs: 1_000 };
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

/** A backend with one watchable resource (changed on demand) and one that cannot be watched. */
function watched() {
  const state = { watching: 0, changed: undefined as undefined | (() => void), ctx: undefined as BackendContext | undefined };
  const backend = defineBackend({
    name: 'w',
    version: '1.0.0',
    description: 'a watched resource',
    tools: [
      {
        name: 'hello',
        description: 'says hello, and keeps the context to announce list changes with',
        input: z.object({}),
        handler: (_args, ctx) => {
          state.ctx = ctx;
          return 'hello';
        },
      },
    ],
    resources: [
      {
        uri: 'w://watched',
        name: 'watched',
        read: (uri) => ({ contents: [{ uri, text: 'now' }] }),
        subscribe: (_uri, changed) => {
          state.watching++;
          state.changed = changed;
          return () => {
            state.watching--;
            state.changed = undefined;
          };
        },
      },
      { uri: 'w://still', name: 'still', read: (uri) => ({ contents: [{ uri, text: 'same' }] }) },
    ],
  });
  return { backend, state };
}

const open: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

async function serve() {
  const { backend, state } = watched();
  const registry = await Registry.create([inlineBackend('w', backend)], { logger: silentLogger, timeouts });
  const serving: HttpServing = await serveOnHttp(
    registry,
    { name: 'mcphost', version: '9.9.9' },
    { host: '127.0.0.1', port: 0, allowedOrigins: [], allowedHosts: [], maxBodyBytes: 4 << 20, sessionIdleMs: 60_000, maxSessions: 100 },
    silentLogger,
  );
  open.push(
    () => registry.close(),
    () => serving.close(),
  );
  return { serving, registry, state };
}

async function connect(url: string, modern: boolean) {
  const client = new Client({ name: 't', version: '1' }, modern ? MODERN : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  open.push(() => client.close());
  return client;
}

const anything = z.looseObject({});

describe('tasks methods without the tasks extension', () => {
  it.each(['tasks/get', 'tasks/update', 'tasks/cancel'])('%s answers -32021 naming the extension', async (method) => {
    const { serving } = await serve();
    const client = await connect(serving.url, true);
    const error = await client.request({ method, params: { taskId: 'nope' } } as never, anything).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32021);
    expect((error as ProtocolError).message).toContain('io.modelcontextprotocol/tasks');
  });
});

describe('resource subscriptions', () => {
  it('sends updates to a 2025-era session while it subscribes, and stops the watch when it unsubscribes', async () => {
    const { serving, state } = await serve();
    const client = await connect(serving.url, false);
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    await client.subscribeResource({ uri: 'w://watched' });
    expect(state.watching).toBe(1);
    state.changed!();
    await expect.poll(() => updates).toEqual(['w://watched']);
    await client.unsubscribeResource({ uri: 'w://watched' });
    await expect.poll(() => state.watching).toBe(0);
  });

  it('refuses a resource its backend cannot watch, and an unknown one, with -32602', async () => {
    const { serving } = await serve();
    const client = await connect(serving.url, false);
    for (const uri of ['w://still', 'w://nothing']) {
      const error = await client.subscribeResource({ uri }).catch((e: unknown) => e);
      expect(error, uri).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32602);
    }
  });

  it('sends updates on a 2026-era listen stream that names the resource, until it closes', async () => {
    const { serving, state } = await serve();
    const client = await connect(serving.url, true);
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    const sub = await client.listen({ resourceSubscriptions: ['w://watched'] });
    await expect.poll(() => state.watching).toBe(1);
    state.changed!();
    await expect.poll(() => updates).toEqual(['w://watched']);
    await sub.close();
    await expect.poll(() => state.watching).toBe(0);
  });
});

describe('list changes', () => {
  it.each([
    ['2025-era session', false],
    ['2026-era listen stream', true],
  ])('reach a %s', async (_what, modern) => {
    const { serving, state } = await serve();
    const client = await connect(serving.url, modern);
    const seen: string[] = [];
    for (const kind of ['tools', 'prompts', 'resources'] as const) {
      client.setNotificationHandler(`notifications/${kind}/list_changed`, () => void seen.push(kind));
    }
    if (modern) await client.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    await client.callTool({ name: 'w_hello', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const kind of ['tools', 'prompts', 'resources'] as const) state.ctx!.notifyListChanged(kind);
    await expect.poll(() => [...seen].sort()).toEqual(['prompts', 'resources', 'tools']);
  });
});
