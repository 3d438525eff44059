// `mcphost call --as-task` with the real binary against a real `mcphost serve --transport http`
// (issue 35, item 8): the long tool becomes a task the call follows with tasks/get and prints the
// result of; on a terminal it draws the progress bar, and Ctrl-C at the terminal sends tasks/cancel —
// the server's tool sees the task's cancel, the task ends cancelled, and the call exits 130. The
// docs' curl example (```sh curl-example) is run as written against the same server.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { readDoc } from '../helpers/docs.js';
import { BIN } from '../helpers/paths.js';
import { startHttp, type HttpServer } from '../helpers/mcp.js';
import { FOLLOWS_TASKS, TaskFollower } from '../helpers/tasks.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';
import { haveScript, startOnTty, runOnTty, visible } from '../helpers/tty.js';
import { EVERYTHING } from '../upstream/helpers.js';

const LAB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli/fixtures/lab/index.js');
const server = tempDir('mcphost-task-serve-');
const journal = path.join(server.dir, 'lab.log');
server.write(
  '.mcprc.yaml',
  `plugins:\n  lab:\n    module: ${LAB}\n    journal: ${journal}\n` +
    `servers:\n  everything:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`,
);
await approve(server.dir);
const shell = tempDir('mcphost-task-shell-');
const env = isolatedEnv(shell.dir);
const TASK_ID = /runs as task ([\w.-]{40,})/;

let serving: HttpServer;
beforeAll(async () => {
  serving = await startHttp([], { cwd: server.dir });
}, 30_000);
afterAll(async () => {
  await serving?.stop();
});

const journalLines = () => (existsSync(journal) ? readFileSync(journal, 'utf8').trim().split('\n') : []);
let startedSoFar = 0;
/** How many runs of lab_long had started when the last test began (each test adds its own). */
const started = () => startedSoFar;
beforeEach(() => void (startedSoFar = journalLines().filter((l) => l === 'started').length));

describe('call --url --as-task', () => {
  it('follows the task to its result and prints it as a plain call would, without a bar when piped', async () => {
    const args = ['--url', serving.url, '--as-task', 'lab', 'long', '--count', '6', '--step-ms', '100'];
    const r = await runCli(['call', ...args, '--log-level', 'debug'], { cwd: shell.dir, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('6 steps done');
    expect(r.stderr).toMatch(TASK_ID);
    expect(r.stderr).not.toMatch(/\[=+-*\]/);
    const plain = await runCli(['call', '--url', serving.url, 'lab', 'long', '--count', '2'], { cwd: shell.dir, env });
    expect({ exit: plain.exitCode, out: plain.stdout }).toEqual({ exit: 0, out: '2 steps done' });
    expect(journalLines().filter((l) => l === 'finished').length).toBeGreaterThanOrEqual(2);
  });

  it('answers a quick call directly, as without the flag', async () => {
    const r = await runCli(['call', '--url', serving.url, '--as-task', '--log-level', 'debug', 'lab', 'read_at', '--offset', '3'], {
      cwd: shell.dir,
      env,
    });
    expect({ exit: r.exitCode, out: r.stdout }).toEqual({ exit: 0, out: 'read at 3' });
    expect(r.stderr).not.toMatch(TASK_ID);
  });

  it.skipIf(!haveScript)('draws the progress bar of the task on a terminal, then prints the result', async () => {
    const r = await runOnTty(['call', '--url', serving.url, '--as-task', 'lab', 'long', '--count', '20', '--step-ms', '100'], {
      cwd: shell.dir,
      env,
    });
    expect(r.exitCode, r.stdout).toBe(0);
    const shown = visible(r.stdout);
    expect(shown).toMatch(/\[=+-*\] +\d+% step \d+ of 20/);
    expect(shown.trimEnd().endsWith('20 steps done')).toBe(true);
  });

  it.skipIf(!haveScript)(
    'cancels the task on Ctrl-C: the server sees tasks/cancel, the task ends cancelled, the call exits 130',
    async () => {
      const run = startOnTty(
        ['call', '--url', serving.url, '--as-task', '--log-level', 'debug', 'lab', 'long', '--count', '1000', '--step-ms', '50'],
        { cwd: shell.dir, env },
      );
      await expect
        .poll(() => TASK_ID.test(run.output()) && /% step \d+ of 1000/.test(visible(run.output())), { timeout: 20_000 })
        .toBe(true);
      const taskId = TASK_ID.exec(run.output())![1];
      run.ctrlC();
      const exit = await run.exited;
      expect(exit, run.output()).toBe(130);
      expect(visible(run.output())).toContain(`tool lab_long was cancelled: interrupted (task ${taskId} cancelled on the server)`);
      // The tool's abort came from the task's cancel (not from a dropped connection or a shutdown).
      expect(journalLines()).toContainEqual(expect.stringMatching(/^stopped: cancelled: the task was cancelled$/));
      // The same caller (this machine's address) reads the task: it ended cancelled.
      const client = await serving.connect('modern', undefined, { capabilities: FOLLOWS_TASKS });
      expect((await new TaskFollower(client).get(taskId)).status).toBe('cancelled');
    },
  );
});

describe('a plain call interrupted', () => {
  it('exits 130 on SIGINT, as a shell reports Ctrl-C, not as a tool error', async () => {
    const child = execa(process.execPath, [BIN, 'call', '--url', serving.url, 'lab', 'long', '--count', '1000', '--step-ms', '50'], {
      cwd: shell.dir,
      env,
      extendEnv: false,
      reject: false,
    });
    await expect.poll(() => journalLines().filter((l) => l === 'started').length, { timeout: 15_000 }).toBe(started() + 1);
    child.kill('SIGINT');
    const r = await child;
    expect({ exit: r.exitCode, stderr: String(r.stderr) }).toEqual({
      exit: 130,
      stderr: 'Error: tool lab_long was cancelled: interrupted',
    });
  });
});

describe("the docs' curl example of a task", () => {
  it('creates a task with tools/call and polls tasks/get until the result, as written', async () => {
    const blocks = [...readDoc('docs/reference.md').matchAll(/^```sh curl-example\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
    expect(blocks).toHaveLength(1);
    const r = await execa('bash', ['-c', `set -euo pipefail\n${blocks[0]}`], {
      cwd: shell.dir,
      env: { ...env, MCP: serving.url },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const out = String(r.stdout);
    expect(out).toContain('"status":"working"');
    expect(out.trimEnd().split('\n').slice(-2)).toEqual(['completed', 'Long running operation completed. Duration: 3 seconds, Steps: 3.']);
  });
});
