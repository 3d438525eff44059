// What a caller creates is its own: over a real 127.0.0.1 socket, two named clients of the 2026 era
// (the SDK client, following tasks); A's task is, for B, exactly what an id that never existed is
// (tasks/get, tasks/update, tasks/cancel), while A reads and cancels it; a requestState handed to A
// (a paused call's question, a handler's state) is, echoed by B, what a forged one is.
import { Client, StreamableHTTPClientTransport, type ServerContext } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { namedClientsSchema } from '../../src/config/named-clients.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import type { Identity } from '../../src/registry/identity.js';
import { tokenHash } from '../../src/server/auth/client-tokens.js';
import { identityInfo } from '../../src/server/auth/identity-info.js';
import type { HttpServing } from '../../src/server/http.js';
import { createStateSeal } from '../../src/server/request-state.js';
import { FOLLOWS_TASKS, TaskFollower, finished } from '../helpers/tasks.js';
import { inlineBackend } from '../helpers/inline-backend.js';
import { waitTool } from '../helpers/task-tools.js';
import { serveOnLoopback } from '../helpers/http-serve.js';

const backend = defineBackend({
  name: 'work',
  version: '1.0.0',
  description: 'runs long enough to become a task',
  tools: [waitTool],
});

const open: Array<{ serving: HttpServing; registry: Registry; clients: Client[] }> = [];
afterEach(async () => {
  for (const { serving, registry, clients } of open.splice(0)) {
    await Promise.allSettled(clients.map((c) => c.close()));
    await serving.close();
    await registry.close();
  }
});

async function serve() {
  const registry = await Registry.create([inlineBackend('work', backend)], {
    logger: silentLogger,
    timeouts: { toolMs: 20_000, startMs: 5_000, shutdownMs: 1_000 },
  });
  const clients = namedClientsSchema.parse({ a: { token: tokenHash('token-a') }, b: { token: tokenHash('token-b') } });
  const serving = await serveOnLoopback(registry, { clients });
  const entry = { serving, registry, clients: [] as Client[] };
  open.push(entry);
  const connect = async (token: string) => {
    const client = new Client(
      { name: `ownership-${token}`, version: '1.0.0' },
      { capabilities: FOLLOWS_TASKS, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serving.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    entry.clients.push(client);
    return client;
  };
  return { connect };
}

/** The JSON-RPC error a request got (code and message), or 'answered'. */
async function refusal(work: Promise<unknown>): Promise<{ code?: number; message: string } | 'answered'> {
  try {
    await work;
    return 'answered';
  } catch (error) {
    return { code: (error as { code?: number }).code, message: (error as Error).message };
  }
}

describe("a caller's tasks", () => {
  it('are, for another caller, what an id that never existed is: get, update and cancel alike', async () => {
    const { connect } = await serve();
    const [a, b] = [await connect('token-a'), await connect('token-b')];
    const [asA, asB] = [new TaskFollower(a), new TaskFollower(b)];
    const started = await asA.call('work_long', { ms: 5_000 });
    const id = started.task!.taskId;
    const never = crypto.randomUUID();
    const sameAsNever = async (request: (taskId: string) => Promise<unknown>) => {
      const [theirs, none] = [await refusal(request(id)), await refusal(request(never))];
      expect(theirs).not.toBe('answered');
      expect(theirs).toEqual(none === 'answered' ? none : { ...none, message: none.message.replace(never, id) });
    };
    await sameAsNever((taskId) => asB.get(taskId));
    await sameAsNever((taskId) => asB.cancel(taskId));
    await sameAsNever((taskId) => b.request({ method: 'tasks/update', params: { taskId, inputResponses: {} } }, z.looseObject({})));
    // Still A's, still running: B's cancel did nothing.
    expect((await asA.get(id)).status).toBe('working');
    await asA.cancel(id);
    expect((await asA.poll(id, finished)).status).toBe('cancelled');
  });
});

describe('a requestState', () => {
  const seal = createStateSeal({});
  const ctxOf = (identity: Identity) =>
    ({ mcpReq: { method: 'tools/call' }, http: { authInfo: identityInfo(identity) } }) as unknown as ServerContext;
  const a: Identity = { kind: 'token', subject: 'a', client: 'a' };
  const b: Identity = { kind: 'token', subject: 'b', client: 'b' };

  it('handed to one caller is refused from another as a forged one is, and taken from its own', async () => {
    const paused = await seal.mint({ k: 'p', id: 'the-paused-call' }, ctxOf(a));
    expect(await seal.verify(paused, ctxOf(a))).toEqual({ k: 'p', id: 'the-paused-call' });
    // The SDK's seam answers every rejected requestState (bad MAC, expired, bound elsewhere) with one
    // frozen -32602 "Invalid or expired requestState"; only its reason, kept off the wire, differs.
    expect(await refusal(seal.verify(paused, ctxOf(b)))).toEqual({ code: undefined, message: 'bind' });
    expect(await refusal(seal.verify(`${paused.slice(0, -4)}AAAA`, ctxOf(b)))).not.toBe('answered');
  });
});
