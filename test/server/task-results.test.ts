// Finished tasks (SEP-2663) bounded by bytes as well as by count, over a real 127.0.0.1 socket with
// a 2026-era SDK client that follows tasks: past `tasks.resultBytes` the oldest finished results go,
// the newest stay readable whole, and a running task is never dropped.
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import { serveOnHttp, type HttpServing } from '../../src/server/http.js';
import { inlineBackend } from '../helpers/inline-backend.js';
import { FOLLOWS_TASKS, TaskFollower, finished } from '../helpers/tasks.js';

const KB = 1000;
/** Past 250 ms a call that may run as a task becomes one. */
const SLOW_MS = 400;

describe('finished tasks bounded by bytes', () => {
  let registry: Registry;
  let serving: HttpServing;
  let client: Client;
  let tasks: TaskFollower;
  const gates: Array<() => void> = [];

  beforeAll(async () => {
    const big = defineBackend({
      name: 'b',
      version: '1.0.0',
      description: 'large slow results',
      tools: [
        {
          name: 'big',
          description: 'answers `kb` thousand characters after a while (or once released)',
          input: z.object({ kb: z.number().int(), tag: z.string(), hold: z.boolean().optional() }),
          task: 'optional',
          handler: async ({ kb, tag, hold }) => {
            await new Promise<void>((resolve) => (hold ? gates.push(resolve) : setTimeout(resolve, SLOW_MS)));
            return `${tag}:${'x'.repeat(kb * KB)}`;
          },
        },
      ],
    });
    registry = await Registry.create([inlineBackend('b', big)], {
      logger: silentLogger,
      timeouts: { toolMs: 30_000, startMs: 5_000, shutdownMs: 1_000 },
      limits: { taskResultBytes: 1_000 * KB },
    });
    serving = await serveOnHttp(
      registry,
      { name: 'mcphost', version: '0.0.0-test' },
      { host: '127.0.0.1', port: 0, allowedOrigins: [], allowedHosts: [], maxBodyBytes: 4 << 20, sessionIdleMs: 60_000, maxSessions: 10 },
      silentLogger,
    );
    client = new Client(
      { name: 'task-results-test', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: FOLLOWS_TASKS },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
    tasks = new TaskFollower(client);
  });
  afterAll(async () => {
    await client?.close();
    await serving?.close();
    await registry?.close();
  });

  const start = async (args: Record<string, unknown>) => {
    const answer = await tasks.call('b_big', args);
    if (!answer.task) throw new Error('the call was answered at once, not as a task');
    return answer.task.taskId;
  };
  const textOf = async (id: string) => {
    const done = await tasks.poll(id, finished);
    expect(done.status).toBe('completed');
    return (done.result!.content[0] as { text: string }).text;
  };

  it('drops the oldest finished results past tasks.resultBytes; the newest and a running task stay', async () => {
    const running = await start({ kb: 10, tag: 'running', hold: true });
    const ids: string[] = [];
    for (const tag of ['t1', 't2', 't3', 't4']) {
      const id = await start({ kb: 400, tag });
      expect((await textOf(id)).slice(0, 3)).toBe(`${tag}:`);
      ids.push(id);
    }
    // 4 × 400 kB against a 1,000 kB bound: the two oldest went, the two newest are whole.
    for (const id of ids.slice(0, 2)) {
      const error = await tasks.get(id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).message).toContain(`unknown task "${id}"`);
    }
    for (const id of ids.slice(2)) expect(await textOf(id)).toHaveLength(3 + 400 * KB);
    expect((await tasks.get(running)).status).toBe('working');
    gates.splice(0).forEach((release) => release());
    expect((await textOf(running)).slice(0, 8)).toBe('running:');
  });
});
