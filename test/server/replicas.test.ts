// Two replicas (`http.replicaId` r1 and r2, one MCPHOST_STATE_KEY) over real 127.0.0.1 sockets,
// with the SDK client of the 2026 era: what one holds — a task, a call paused for its client's
// answer — is, asked of the other, answered `421` naming the holder (what the documented nginx
// routes by), never "unknown task" or "no longer waiting"; told that the holder is gone
// (`Mcphost-Replica-Gone`, which nginx sets), the other answers what was lost, to its owner only.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { namedClientsSchema } from '../../src/config/named-clients.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import { tokenHash } from '../../src/server/auth/client-tokens.js';
import type { HttpServing } from '../../src/server/http.js';
import { FOLLOWS_TASKS, TaskFollower } from '../helpers/tasks.js';
import { inlineBackend } from '../helpers/inline-backend.js';
import { waitTool } from '../helpers/task-tools.js';
import { serveOnLoopback } from '../helpers/http-serve.js';

const backend = defineBackend({
  name: 'work',
  version: '1.0.0',
  description: 'runs long enough to become a task, or asks its client',
  tools: [
    waitTool,
    {
      name: 'ask',
      description: 'asks its client for a name, mid-call',
      input: z.object({}),
      handler: async (_args, ctx) => {
        const answer = await ctx.elicit({
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        });
        return `hello ${String(answer.content?.name)}`;
      },
    },
  ],
});

let registry: Registry;
const replicas: Record<string, HttpServing> = {};
const clients: Client[] = [];
const savedKey = process.env.MCPHOST_STATE_KEY;

beforeAll(async () => {
  process.env.MCPHOST_STATE_KEY = 'a-key-both-replicas-share-0123456789';
  registry = await Registry.create([inlineBackend('work', backend)], {
    logger: silentLogger,
    timeouts: { toolMs: 20_000, startMs: 5_000, shutdownMs: 1_000 },
  });
  const named = namedClientsSchema.parse({ a: { token: tokenHash('token-a') }, b: { token: tokenHash('token-b') } });
  for (const id of ['r1', 'r2']) replicas[id] = await serveOnLoopback(registry, { replicaId: id, clients: named });
});

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  for (const serving of Object.values(replicas)) await serving.close();
  await registry?.close();
  if (savedKey === undefined) delete process.env.MCPHOST_STATE_KEY;
  else process.env.MCPHOST_STATE_KEY = savedKey;
});

/**
 * A 2026-era client of `replica` as `token`. `route` picks, for each request body, the replica it
 * goes to (a round-robin balancer's pick); `follow421` does what nginx does with a 421: send the
 * request again to the replica it names.
 */
async function connect(
  token: string,
  options: { replica?: string; route?: (body: string) => string; follow421?: boolean; headers?: Record<string, string> } = {},
) {
  const sent: string[] = [];
  const to = (id: string) => new URL(replicas[id].url);
  const fetchVia = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const body = typeof init?.body === 'string' ? init.body : '';
    const pick = options.route?.(body) ?? options.replica ?? 'r1';
    sent.push(pick);
    const response = await fetch(options.route ? to(pick) : url, init);
    const holder = response.headers.get('mcphost-replica');
    if (response.status !== 421 || !options.follow421 || !holder) return response;
    sent.push(`421→${holder}`);
    return fetch(to(holder), init);
  };
  const client = new Client(
    { name: `replicas-${token}`, version: '1.0.0' },
    { capabilities: { ...FOLLOWS_TASKS, elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(to(options.replica ?? 'r1'), {
      requestInit: { headers: { authorization: `Bearer ${token}`, ...options.headers } },
      fetch: fetchVia,
    }),
  );
  clients.push(client);
  return { client, tasks: new TaskFollower(client), sent };
}

/** The HTTP status and JSON-RPC error a request was refused with. */
async function refusal(work: Promise<unknown>): Promise<{ status?: number; code?: number; message: string; replica?: string }> {
  try {
    await work;
  } catch (error) {
    const e = error as { code?: number; message: string; data?: { status?: number; text?: string } };
    if (e.data?.status !== undefined && e.data.text) {
      const body = JSON.parse(e.data.text) as { error: { code: number; message: string; data?: { replica?: string } } };
      return { status: e.data.status, code: body.error.code, message: body.error.message, replica: body.error.data?.replica };
    }
    return { code: e.code, message: e.message };
  }
  throw new Error('expected the request to be refused');
}

describe('two replicas', () => {
  it("answer another replica's task with 421 naming it, and the holder answers it", async () => {
    const onR1 = await connect('token-a', { replica: 'r1' });
    const { taskId } = (await onR1.tasks.call('work_long', { ms: 5_000 })).task!;
    expect(taskId).toMatch(/^r1\./);
    const onR2 = await connect('token-a', { replica: 'r2' });
    expect(await refusal(onR2.tasks.get(taskId))).toMatchObject({
      status: 421,
      replica: 'r1',
      message: expect.stringContaining('replica r1 holds'),
    });
    expect(await refusal(onR2.tasks.cancel(taskId))).toMatchObject({ status: 421, replica: 'r1' });
    // Sent where the 421 says, it is answered: still running, then cancelled by its owner.
    const routed = await connect('token-a', { replica: 'r2', follow421: true });
    expect((await routed.tasks.get(taskId)).status).toBe('working');
    await routed.tasks.cancel(taskId);
    expect((await onR1.tasks.get(taskId)).status).toBe('cancelled');
  });

  it('answer a task whose replica is gone as failed, saying so, to its owner; for another caller it never existed', async () => {
    const onR1 = await connect('token-a', { replica: 'r1' });
    const { taskId } = (await onR1.tasks.call('work_long', { ms: 5_000 })).task!;
    const gone = { 'mcphost-replica-gone': 'r1' };
    const owner = await connect('token-a', { replica: 'r2', headers: gone });
    expect(await owner.tasks.get(taskId)).toMatchObject({
      taskId,
      status: 'failed',
      error: { message: 'replica r1, which ran this task, cannot be reached; what it was doing is lost: call the tool again' },
    });
    await owner.tasks.cancel(taskId);
    const other = await connect('token-b', { replica: 'r2', headers: gone });
    const theirs = await refusal(other.tasks.get(taskId));
    const never = await refusal(other.tasks.get(`r1.${crypto.randomUUID()}`));
    expect(theirs.message).toBe(never.message.replace(/"r1\.[^"]*"/, JSON.stringify(taskId)));
    expect(theirs.message).toMatch(/^unknown task/);
    await onR1.tasks.cancel(taskId);
  });

  it('send the retry of a call paused on one replica back to it from the other, and the call ends there', async () => {
    // Every request goes to r1 but the retry (the one carrying requestState), which goes to r2.
    const route = (body: string) => (body.includes('"requestState"') ? 'r2' : 'r1');
    const asker = await connect('token-a', { route, follow421: true });
    asker.client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }));
    const result = await asker.client.callTool({ name: 'work_ask', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect(asker.sent.slice(-3)).toEqual(['r1', 'r2', '421→r1']);
    // Without the balancer's second step, the client is told where the call waits.
    const unrouted = await connect('token-a', { route });
    unrouted.client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }));
    expect(await refusal(unrouted.client.callTool({ name: 'work_ask', arguments: {} }))).toMatchObject({ status: 421, replica: 'r1' });
  });

  it('say a paused call is no longer waiting, and why, once its replica is gone', async () => {
    const route = (body: string) => (body.includes('"requestState"') ? 'r2' : 'r1');
    const asker = await connect('token-a', { route, headers: { 'mcphost-replica-gone': 'r1' } });
    asker.client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }));
    expect((await refusal(asker.client.callTool({ name: 'work_ask', arguments: {} }))).message).toContain(
      'no longer waiting (replica r1, which held it, cannot be reached)',
    );
  });
});
