// The test helper that follows tasks must hand each call its own task, also when one client starts
// several at once: a helper that mixed them up would make every task test above it prove nothing.
// Real parts: the host serving Streamable HTTP on 127.0.0.1, the SDK's client, a tool whose calls
// take a random time so that the tasks end in another order than they began.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveEchoLater } from './task-tools.js';
import { FOLLOWS_TASKS, TaskFollower, finished } from './tasks.js';

const CALLS = 8;

describe('TaskFollower with concurrent calls from one client', () => {
  let served: Awaited<ReturnType<typeof serveEchoLater>>;
  let client: Client;
  let tasks: TaskFollower;

  beforeAll(async () => {
    served = await serveEchoLater();
    client = new Client(
      { name: 'tasks-helper-test', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: FOLLOWS_TASKS },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(served.serving.url)));
    tasks = new TaskFollower(client);
  });
  afterAll(async () => {
    await client?.close();
    await served?.close();
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
