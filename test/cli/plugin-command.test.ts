// A third-party plugin's command gets a CLI made from its zod input (src/cli/plugin-command.ts),
// with no file of the host naming the plugin: flags, defaults, help, errors and --json, in-process
// as bin/run.js runs it (the command_not_found hook hands `<plugin>:<command>` to it).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import McphostHelp from '../../src/cli/help.js';
import { runPluginCommandCli } from '../../src/cli/plugin-command.js';
import { FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';
import { runInProcess } from './run-command.js';

const TALLY = path.join(FIXTURES, 'tally/index.js');
const t = tempDir('mcphost-plugin-command-');
t.write('.mcprc.yaml', `plugins:\n  tally:\n    module: ${TALLY}\n    unit: token\n`);
await approve(t.dir);

const tally = (argv: string[], id = 'tally:count') => runInProcess({ cwd: t.dir }, (config) => runPluginCommandCli(id, argv, config));

describe('a module plugin command from its schema', () => {
  it('reads repeated, typed and switch flags, applies the defaults written in the plugin, and prints JSON', async () => {
    const r = await tally(['--words', 'a', '--words', 'b', '--words=a', '--times', '3', '--loud', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ unit: 'token', total: 9, counts: { A: 6, B: 3 } });
    const defaults = await tally(['--words', 'x', '--json']);
    expect(JSON.parse(defaults.stdout)).toEqual({ unit: 'token', total: 1, counts: { x: 1 } });
  });

  it('prints a plain result for people as a tool result is printed (JSON text)', async () => {
    const r = await tally(['--words', 'x']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ unit: 'token', total: 1, counts: { x: 1 } });
  });

  it('refuses bad input with the flag named, exit 1', async () => {
    const cases: Array<[string[], string]> = [
      [[], 'Error: --words is required: words to count (repeat the flag)'],
      [['--words', 'a', '--times', 'many'], 'Error: --times expects an integer, got "many"'],
      [
        ['--words', 'a', '--time', '2'],
        'Error: unknown flag --time for tally:count (did you mean --times?); valid flags: --words, --times, --loud',
      ],
      [['--words', 'a', 'stray'], 'Error: unexpected argument "stray": options of tally:count are flags (--name value)'],
    ];
    for (const [argv, stderr] of cases) expect(await tally(argv), argv.join(' ')).toMatchObject({ exitCode: 1, stderr });
    const range = await tally(['--words', 'a', '--times', '500', '--json']);
    expect(range.exitCode).toBe(1);
    expect(JSON.parse(range.stdout).error.message).toMatch(/^times: .*100/);
  });

  it('names the commands a plugin has for a command it lacks', async () => {
    const r = await tally(['--words', 'a'], 'tally:cout');
    expect(r).toMatchObject({
      exitCode: 1,
      stderr: 'Error: unknown command tally:cout; did you mean mcphost tally:count? (the tally plugin has tally:count)',
    });
  });

  it('--help shows the flags generated from the schema, with their defaults', async () => {
    const r = await runInProcess({ cwd: t.dir }, (config) => new McphostHelp(config).showHelp(['tally:count', '--help']));
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Count words, each `times` times.');
    expect(r.stdout).toContain('$ mcphost tally:count --words <string…> [--times <integer>] [--[no-]loud]');
    expect(r.stdout).toMatch(/--times <integer>\s+how many times each word counts \(default 1\)/);
  });
});
