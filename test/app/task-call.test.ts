// `mcphost call --as-task` in-process (issue 35, item 8): the one-shot's call goes through mcphost's
// own MCP server as a 2026-07-28 client that follows tasks, so a long task-capable tool becomes a
// task — progress read from tasks/get, the result the task ends with, and an interrupt that sends
// tasks/cancel, which the tool sees as the task's cancel. A quick or task-less call is answered directly.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runOneShot, type OneShotRequest } from '../../src/app/one-shot.js';
import type { ProgressUpdate } from '../../src/backend/types.js';
import { isolatedEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';

const LAB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli/fixtures/lab/index.js');
const t = tempDir('mcphost-task-call-');
const journal = path.join(t.dir, 'lab.log');
t.write('.mcprc.yaml', `plugins:\n  lab:\n    module: ${LAB}\n    journal: ${journal}\nlog:\n  level: debug\n`);
await approve(t.dir);

function call(tool: string, args: Record<string, unknown>, extra: Partial<OneShotRequest> = {}) {
  const log: string[] = [];
  const outcome = runOneShot({
    cwd: t.dir,
    env: isolatedEnv(t.dir) as NodeJS.ProcessEnv,
    writeLog: (line) => void log.push(line),
    plugin: 'lab',
    tool,
    args,
    asTask: true,
    ...extra,
  });
  return { outcome, log };
}

const text = (o: Awaited<ReturnType<typeof runOneShot>>) => o.result.content.map((c) => (c as { text?: string }).text).join('');
const journalLines = () => readFileSync(journal, 'utf8').trim().split('\n');

describe('call --as-task, in-process', () => {
  it('runs a long task-capable tool as a task: progress with its numbers, then the result', async () => {
    const seen: ProgressUpdate[] = [];
    const { outcome, log } = call('long', { count: 10, stepMs: 100 }, { onProgress: (p) => void seen.push(p) });
    const done = await outcome;
    expect(done.error).toBeUndefined();
    expect(text(done)).toBe('10 steps done');
    expect(log.join('\n')).toMatch(/lab_long runs as task [\w.-]{40,}/);
    // Read from tasks/get after the task was created: numbers and the status message, in order.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((p) => p.total === 10 && p.message === `step ${p.progress} of 10`)).toBe(true);
    expect(seen.map((p) => p.progress)).toEqual([...seen.map((p) => p.progress)].sort((a, b) => a - b));
    expect(done.result).toEqual((await call('long', { count: 10 }, { asTask: false }).outcome).result);
  });

  it('cancels the task when interrupted: the tool sees the task cancelled, the outcome says the server confirmed', async () => {
    const interrupt = new AbortController();
    const { outcome, log } = call(
      'long',
      { count: 1000, stepMs: 20 },
      { signal: interrupt.signal, onProgress: () => log.some((l) => l.includes('runs as task')) && interrupt.abort('interrupted') },
    );
    const done = await outcome;
    const taskId = /runs as task ([\w.-]{40,})/.exec(log.join('\n'))![1];
    expect(done.error).toMatchObject({
      kind: 'cancelled',
      message: `tool lab_long was cancelled: interrupted (task ${taskId} cancelled on the server)`,
    });
    expect(journalLines()).toContainEqual(expect.stringMatching(/^stopped: cancelled: the task was cancelled$/));
  });

  it('stops a task that asks for input, which a shell cannot give, and says so', async () => {
    const { outcome, log } = call('ask_late', { delayMs: 400 });
    const done = await outcome;
    const taskId = /runs as task ([\w.-]{40,})/.exec(log.join('\n'))![1];
    expect(done.error).toMatchObject({
      kind: 'tool_error',
      code: 'INPUT_REQUIRED',
      message: `tool lab_ask_late asked for input (elicitation/create) that mcphost call cannot answer; its task ${taskId} was cancelled — call it from a client that answers questions`,
    });
  });

  it('answers a tool that is not task-capable directly, its errors as a plain call', async () => {
    const { outcome, log } = call('read_at', { offset: -1 });
    const done = await outcome;
    expect(done.error).toMatchObject({ code: -32602, message: 'offset: must not be negative' });
    expect(log.join('\n')).not.toMatch(/runs as task/);
    // The very result a plain call gets (the 2026 era's serverInfo stamp is not the tool's).
    const [asTask, plain] = await Promise.all([
      call('read_at', { offset: 4 }).outcome,
      call('read_at', { offset: 4 }, { asTask: false }).outcome,
    ]);
    expect(asTask.result).toEqual(plain.result);
    expect(text(asTask)).toBe('read at 4');
  });
});
