// `callAsTask` (src/app/task-call.ts) reads the task a call became off that call's own answer, so
// several task calls of one client in flight each end with their own result — the mix-up the test
// helper once had (test/helpers/tasks.ts) cannot happen here. Real parts: the host on 127.0.0.1
// over Streamable HTTP, the SDK's client with mcphost's task-result carrier, calls of random length.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAsTask } from '../../src/app/task-call.js';
import { carryTaskResults } from '../../src/kit/mcp/task-results.js';
import { serveEchoLater } from '../helpers/task-tools.js';

describe('callAsTask with concurrent calls from one client', () => {
  let served: Awaited<ReturnType<typeof serveEchoLater>>;
  let client: Client;

  beforeAll(async () => {
    served = await serveEchoLater();
    client = new Client({ name: 'task-call-concurrent-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const transport = new StreamableHTTPClientTransport(new URL(served.serving.url));
    carryTaskResults(transport);
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await served?.close();
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
