// `callAsTask` (src/app/task-call.ts) reads the task a call became off that call's own answer, so
// several task calls of one client in flight each end with their own result — the mix-up the test
// helper once had (test/helpers/tasks.ts) cannot happen here. Real parts: the host on 127.0.0.1
// over Streamable HTTP, the SDK's client with mcphost's task-result carrier, calls of random length.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { callAsTask } from '../../src/app/task-call.js';
import { defineBackend } from '../../src/backend/index.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { carryTaskResults } from '../../src/kit/mcp/task-results.js';
import { Registry } from '../../src/registry/registry.js';
import { serveOnHttp, type HttpServing } from '../../src/server/http.js';
import { inlineBackend } from '../helpers/inline-backend.js';

/** Past 250 ms a call that may run as a task becomes one: each call takes 300 to 900 ms. */
const randomMs = () => 300 + Math.floor(Math.random() * 600);

describe('callAsTask with concurrent calls from one client', () => {
  let registry: Registry;
  let serving: HttpServing;
  let client: Client;

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
    client = new Client({ name: 'task-call-concurrent-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const transport = new StreamableHTTPClientTransport(new URL(serving.url));
    carryTaskResults(transport);
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await serving?.close();
    await registry?.close();
  });

  it('ends each of several calls started at once with its own result, a quick one among them', async () => {
    const labels = ['c0-0', 'c0-1', 'now', 'c0-2', 'c0-3', 'c0-4', 'c0-5'];
    const tasks: string[] = [];
    const outcomes = await Promise.all(
      labels.map((label) =>
        callAsTask(
          client,
          'w_echo_later',
          { label, instant: label === 'now' },
          { cancelWaitMs: 1_000, onTask: (id) => void tasks.push(id) },
        ),
      ),
    );
    expect(outcomes.map((o) => o.error)).toEqual(labels.map(() => undefined));
    expect(outcomes.map((o) => (o.result?.content[0] as { text?: string })?.text)).toEqual(labels.map((l) => `done:${l}`));
    // The slow ones did run as tasks (the quick one was answered at once), each its own.
    expect(new Set(tasks).size).toBe(labels.length - 1);
  });
});
