// Every command family against the README's exit-code table, in-process: the code, what the user
// reads on stderr, and with --json the compact `{"error": {message, exit}}` on stdout.
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Call from '../../src/commands/call.js';
import ConfigCommand from '../../src/commands/config.js';
import Doctor from '../../src/commands/doctor.js';
import Prompts from '../../src/commands/prompts.js';
import Read from '../../src/commands/read.js';
import Resources from '../../src/commands/resources.js';
import Serve from '../../src/commands/serve.js';
import Servers from '../../src/commands/servers.js';
import Tools from '../../src/commands/tools.js';
import { KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';
import { runPluginCommandCli } from '../../src/cli/plugin-command.js';
import { runCommand, runInProcess, type CommandRun } from './run-command.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const LAB = path.join(here, 'fixtures/lab/index.js');
const DOWN = path.join(here, 'fixtures/down/index.js');
const CLASH = path.join(here, 'fixtures/clash/index.js');

const t = tempDir('mcphost-exit-');
t.write(
  '.mcprc.yaml',
  `plugins:\n  lab:\n    module: ${LAB}\n  kitchen:\n    module: ${KITCHEN}\n  clash:\n    module: ${CLASH}\n    enabled: false\n`,
);
// It imports modules: approved once, as its user would (`mcphost trust`); the other files are named with --config.
await approve(t.dir);
const BAD = t.write('bad.yaml', `plugins:\n  lab:\n    module: ${LAB}\n    label: 7\n`);
const BAD_HOST = t.write('bad-host.yaml', `plugins:\n  lab:\n    module: ${LAB}\nhttp:\n  port: many\n`);
const WITH_DOWN = t.write('down.yaml', `plugins:\n  lab:\n    module: ${LAB}\n  down:\n    module: ${DOWN}\n`);
const DEAD_SERVER = t.write(
  'dead-server.yaml',
  `servers:\n  dead:\n    command: ${JSON.stringify(process.execPath)}\n    args: ['-e', 'process.exit(3)']\n    connectTimeoutMs: 5000\n`,
);
const UNHEALTHY = t.write('unhealthy.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\n    failStart: true\n`);

type CommandClass = Parameters<typeof runCommand>[0];
const run = (command: CommandClass, argv: string[]) => runCommand(command, argv, { cwd: t.dir });

/** The cases of one family: argv, the exit code, and a piece of the message. */
type Case = [argv: string[], exit: number, says: string | RegExp];

function family(name: string, command: CommandClass, cases: Case[]) {
  describe(name, () => {
    it.each(cases)('%j exits %i', async (argv, exit, says) => {
      const r = await run(command, argv);
      expect(r.exitCode, r.stderr).toBe(exit);
      expect(exit === 0 ? r.stdout : r.stderr).toMatch(says);
      if (exit !== 0) expect(r.stderr).not.toMatch(/USAGE|at .*\.ts:\d+/); // one message, no help dump, no stack
    });

    it.each(cases.filter(([, exit]) => exit !== 0))(
      '%j --json prints {"error": {message, exit: %i}} on stdout',
      async (argv, exit, says) => {
        const r = await run(command, [...argv, '--json']);
        expect(r.exitCode).toBe(exit);
        const error = compactError(r);
        expect(error.exit).toBe(exit);
        expect(error.message).toMatch(says);
      },
    );
  });
}

function compactError(r: CommandRun): { message: string; exit: number; code?: unknown } {
  expect(r.stdout.length, r.stdout).toBeLessThan(4_000);
  return JSON.parse(r.stdout).error;
}

family('call', Call, [
  [['lab', 'read_at', '--offset', '3'], 0, 'read at 3'],
  [['lab_read_at', '--offset', '4'], 0, 'read at 4'],
  [
    ['lab', 'read_at', '--ofset', '3'],
    1,
    'unknown flag --ofset for lab read_at (did you mean --offset?); valid flags: --offset; plugin settings: --label',
  ],
  [['kitchen', 'echo', '--message', 'x', '--times', '9'], 1, /times: .*<=5/],
  [['lab', 'read_at', '--offset', '-1'], 1, 'offset: must not be negative'],
  [['lab', 'lookup', '--name', 'node'], 1, 'class names start with a capital'],
  [['lab', 'red_at'], 1, 'did you mean read_at'],
  [['lab_red_at'], 1, 'did you mean lab_read_at'],
  [['lab', 'read_at', '--timeout', '0'], 1, '--timeout expects a positive number'],
  [
    ['lab', 'recall', '--url', 'http://127.0.0.1:7010/mcp'],
    1,
    'unknown flag --url for lab recall; valid flags: none; plugin settings: --label, --journal (to call through a running mcphost serve, put --url first',
  ],
  [[], 1, 'usage: mcphost call <plugin> <tool>'],
  [['nosuch', 'x'], 2, 'plugin nosuch not found'],
  [['clash', 'open', '--file', 'a'], 2, 'setting file and the parameter file of tool open are both --file'],
  [['lab', 'read_at', '--offset', '1', '-c', BAD], 3, 'plugins.lab.label'],
  [['kitchen', 'offline'], 4, 'kitchen oven not reachable'],
  [['kitchen', 'boom'], 5, 'kaboom'],
]);

family('tools', Tools, [
  [['lab'], 0, /^lab_read_at\s+Refuses a negative offset/m],
  [['--nope'], 1, 'unknown flag --nope for mcphost tools'],
  [['--plugin', 'lab'], 1, 'did you mean --plugins?'],
  [['nosuch'], 2, 'plugin nosuch not found'],
  [['-c', BAD_HOST], 3, 'http.port'],
  [['down', '-c', WITH_DOWN], 4, 'down is down: Unreal Editor not reachable'],
]);

family('resources and prompts', Resources, [
  [['lab'], 0, /^lab:\/\/ok/m],
  [['down', '-c', WITH_DOWN], 4, 'down is down'],
]);

family('read', Read, [
  [['lab://ok'], 0, 'label lab'],
  [[], 1, 'mcphost read needs URI (resource URI)'],
  [['lab://nothing'], 1, 'no resource lab://nothing in lab'],
  [['ghost://x', '--plugins', 'ghost'], 2, 'plugin ghost not found'],
  [['lab://ok', '-c', BAD], 3, 'plugins.lab.label'],
  [['lab://away'], 4, 'the lab is closed'],
  [['lab://broken'], 5, 'the lab notebook is torn'],
]);

family('doctor', Doctor, [
  [['--plugins', 'lab'], 0, /✔ lab 0\.1\.0/],
  [['--plugins', 'ghost'], 2, ''],
  [['--plugins', 'lab', '-c', BAD], 3, ''],
  [['-c', UNHEALTHY], 4, ''],
]);

describe('servers', () => {
  it('prints the report either way and exits 4 when a mounted server is down; --json carries the error beside it', async () => {
    const r = await run(Servers, ['-c', DEAD_SERVER]);
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.stdout).toMatch(/✖\s+dead\s+down/);
    const json = await run(Servers, ['-c', DEAD_SERVER, '--json']);
    expect(json.exitCode).toBe(4);
    const report = JSON.parse(json.stdout);
    expect(report.error).toMatchObject({ exit: 4, message: expect.stringContaining('dead is down') });
    expect(report.servers[0]).toMatchObject({ name: 'dead', state: 'down' });
  });
});

family('config', ConfigCommand, [
  [['--plugins', 'lab'], 0, /plugins\.lab\.label\s+"lab"\s+default/],
  [['-c', BAD_HOST], 3, 'http.port'],
]);

describe('doctor and config keep their report with --json', () => {
  it('prints the report, and the exit code says what failed', async () => {
    const r = await run(Doctor, ['-c', UNHEALTHY, '--json']);
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, plugins: [{ name: 'kitchen', ok: false, stage: 'health' }] });
  });
});

describe('listing a backend that is down', () => {
  it('prints what the others listed, then fails naming the one that is down', async () => {
    const r = await run(Tools, ['--plugins', 'lab,down', '-c', WITH_DOWN]);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toMatch(/^lab_read_at/m);
    expect(r.stderr).toContain('Error: down is down: Unreal Editor not reachable at http://127.0.0.1:1/mcp');
    expect((await run(Prompts, ['down', '-c', WITH_DOWN])).exitCode).toBe(4);
  });
});

describe('call --json', () => {
  it('keeps the raw MCP error result beside the error', async () => {
    const r = await run(Call, ['kitchen', 'coded', '--name', 'pie', '--json']);
    expect(r.exitCode).toBe(5);
    const out = JSON.parse(r.stdout);
    expect(out.error).toEqual({ message: 'no such dish: pie', exit: 5, code: 'NOT_FOUND', data: { suggestions: ['soup', 'salad'] } });
    expect(out).toMatchObject({ isError: true, _meta: { 'mcphost/error': { code: 'NOT_FOUND' } } });
  });

  it('reports a bad config on stdout (it used to print nothing)', async () => {
    const r = await run(Call, ['lab', 'read_at', '--offset', '1', '--json', '-c', BAD]);
    expect(r.exitCode).toBe(3);
    expect(compactError(r).message).toContain('plugins.lab.label');
  });
});

describe('serve', () => {
  let taken: ReturnType<typeof createServer>;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it('exits 1 with the way out when the port is taken', async () => {
    const r = await run(Serve, ['--plugins', 'lab', '--http', String(port)]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      `Error: 127.0.0.1:${port} is already in use (another mcphost serve?): pick a free port with --port N (or --http N, 0 for any), or stop what listens there`,
    );
  });

  it('exits 1 on a non-loopback host without a token, and 3 for a bad config', async () => {
    expect((await run(Serve, ['--plugins', 'lab', '--transport', 'http', '--host', '0.0.0.0'])).exitCode).toBe(1);
    expect((await run(Serve, ['-c', BAD_HOST])).exitCode).toBe(3);
  });
});

describe('exile:snapshot', () => {
  it('exits 1 without --out or --check, and says so in JSON too', async () => {
    // Made from the exile plugin's zod input (plugins/exile/record-command.ts), as bin/run.js makes it.
    const r = await runInProcess({ cwd: t.dir }, (config) => runPluginCommandCli('exile:snapshot', ['--json'], config));
    expect(r.exitCode).toBe(1);
    expect(compactError(r).message).toBe(
      'Expected --out FILE (where to write the snapshot), or --check FILE (a snapshot to check against the live HUD)',
    );
  });

  it('exits 1 naming the flag for a value of the wrong type or out of range, and for a flag it does not have', async () => {
    const snapshot = (argv: string[]) => runInProcess({ cwd: t.dir }, (config) => runPluginCommandCli('exile:snapshot', argv, config));
    const typed = await snapshot(['--out', 'x.json', '--depth', 'deep', '--json']);
    expect([typed.exitCode, compactError(typed).message]).toEqual([1, '--depth expects an integer, got "deep"']);
    const range = await snapshot(['--out', 'x.json', '--depth', '99', '--json']);
    expect(range.exitCode).toBe(1);
    expect(compactError(range).message).toMatch(/^depth: .*32/);
    const unknown = await snapshot(['--out', 'x.json', '--max-call', '5']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toMatch(
      /^Error: unknown flag --max-call for exile:snapshot \(did you mean --max-calls\?\); valid flags: --out, --check, --check-paths, --roots/,
    );
  });
});
