// The test helper that follows tasks must hand each call its own task, also when one client starts
// several at once: a helper that mixed them up would make every task test above it prove nothing.
// Real parts: the host serving Streamable HTTP on 127.0.0.1, the SDK's client, a tool whose calls
// take a random time so that the tasks end in another order than they began.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import { serveOnHttp, type HttpServing } from '../../src/server/http.js';
import { inlineBackend } from './inline-backend.js';
import { FOLLOWS_TASKS, TaskFollower, finished } from './tasks.js';

/** Past 250 ms a call that may run as a task becomes one: each call takes 300 to 900 ms. */
const randomMs = () => 300 + Math.floor(Math.random() * 600);
const CALLS = 8;

describe('TaskFollower with concurrent calls from one client', () => {
  let registry: Registry;
  let serving: HttpServing;
  let client: Client;
  let tasks: TaskFollower;

  beforeAll(async () => {
    const backend = defineBackend({
      name: 'w',
      version: '1.0.0',
      description: 'answers its label after a random while',
      tools: [
        {
          name: 'echo_later',
          description: 'answers `label` after a random while',
          input: z.object({ label: z.string(), instant: z.boolean().optional() }),
          task: 'optional',
          handler: async ({ label, instant }) => {
            if (!instant) await new Promise((resolve) => setTimeout(resolve, randomMs()));
            return `done:${label}`;
          },
        },
      ],
    });
    registry = await Registry.create([inlineBackend('w', backend)], {
      logger: silentLogger,
      timeouts: { toolMs: 30_000, startMs: 5_000, shutdownMs: 1_000 },
    });
    serving = await serveOnHttp(
      registry,
      { name: 'mcphost', version: '0.0.0-test' },
      { host: '127.0.0.1', port: 0, allowedOrigins: [], allowedHosts: [], maxBodyBytes: 4 << 20, sessionIdleMs: 60_000, maxSessions: 10 },
      silentLogger,
    );
    client = new Client(
      { name: 'tasks-helper-test', version: '1' },
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

  it('gives each of several calls started at once its own task, whose result is its own', async () => {
    const labels = Array.from({ length: CALLS }, (_, k) => `c0-${k}`);
    const answers = await Promise.all(labels.map((label) => tasks.call('w_echo_later', { label })));
    const ids = answers.map((a) => {
      if (!a.task) throw new Error(`a call was answered at once (${JSON.stringify(a.result)}), not as a task`);
      return a.task.taskId;
    });
    expect(new Set(ids).size).toBe(CALLS);
    const texts = await Promise.all(
      ids.map(async (id) => ((await tasks.poll(id, finished)).result?.content[0] as { text?: string })?.text),
    );
    expect(texts).toEqual(labels.map((l) => `done:${l}`));
  });

  it('keeps a call answered at once apart from tasks started beside it', async () => {
    const answers = await Promise.all([
      tasks.call('w_echo_later', { label: 'slow-a' }),
      tasks.call('w_echo_later', { label: 'now', instant: true }),
      tasks.call('w_echo_later', { label: 'slow-b' }),
    ]);
    expect((answers[1].result?.content[0] as { text?: string })?.text).toBe('done:now');
    const texts = await Promise.all(
      [answers[0], answers[2]].map(
        async (a) => ((await tasks.poll(a.task!.taskId, finished)).result?.content[0] as { text?: string })?.text,
      ),
    );
    expect(texts).toEqual(['done:slow-a', 'done:slow-b']);
  });
});
