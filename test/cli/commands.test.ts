// The listing and inspection commands in-process: what they print for a person and with --json.
// (test/e2e/commands.test.ts runs the real binary once per family.)
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ConfigCommand from '../../src/commands/config.js';
import Prompts from '../../src/commands/prompts.js';
import Resources from '../../src/commands/resources.js';
import Tools from '../../src/commands/tools.js';
import { isolatedEnv } from '../helpers/cli.js';
import { KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';
import McphostHelp from '../../src/cli/help.js';
import { runCommand, runInProcess } from './run-command.js';

const t = tempDir();
t.write('.mcprc.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\n    greeting: \${GREETING:-hey}\nhttp:\n  token: \${SECRET:-none}\n`);
await approve(t.dir);
type CommandClass = Parameters<typeof runCommand>[0];
const cli = (command: CommandClass, argv: string[], extra: Record<string, string> = {}) =>
  runCommand(command, argv, { cwd: t.dir, env: isolatedEnv(t.dir, extra) });

describe('inspection commands', () => {
  it('tools lists names, titles and one-line descriptions; --json gives full schemas', async () => {
    const text = await cli(Tools, []);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^kitchen_echo\s+Echo\s+Returns the message/m);
    const json = JSON.parse((await cli(Tools, ['kitchen', '--json'])).stdout);
    expect(json.find((x: { name: string }) => x.name === 'kitchen_add')).toMatchObject({
      plugin: 'kitchen',
      localName: 'add',
      inputSchema: { type: 'object', required: ['a', 'b'] },
    });
  });

  it('resources and prompts list what the backends offer', async () => {
    expect((await cli(Resources, [])).stdout).toMatch(/kitchen:\/\/dish\/\{name\}\s+template/);
    const prompts = JSON.parse((await cli(Prompts, ['--json'])).stdout);
    expect(prompts).toEqual([
      {
        name: 'kitchen_order',
        plugin: 'kitchen',
        title: 'Order a dish',
        description: 'Asks the model to order a dish.',
        arguments: [
          { name: 'dish', description: 'what to order', required: true },
          { name: 'notes', required: false },
        ],
      },
    ]);
  });

  it('config prints resolved values with their sources, a reference as written, redacting the token', async () => {
    const r = await cli(ConfigCommand, ['--json'], { GREETING: 'howdy', MCPHOST_PORT: '7999', SECRET: 'hunter2' });
    const report = JSON.parse(r.stdout);
    expect(report.file).toBe(path.join(t.dir, '.mcprc.yaml'));
    // A value from a reference is a secret reference's: shown as written, never expanded (issue 34).
    expect(report.config.plugins.kitchen.greeting).toBe('${GREETING:-hey}');
    expect(r.stdout).not.toContain('howdy');
    expect(report.config.http.port).toBe(7999);
    expect(report.config.http.token).toBe('${SECRET:-none}');
    expect(r.stdout).not.toContain('hunter2');
    expect(report.sources).toMatchObject({
      'http.port': 'env MCPHOST_PORT',
      'plugins.kitchen.greeting': `file ${report.file}`,
      'plugins.kitchen.failStart': 'default',
    });
    const text = await cli(ConfigCommand, ['--log-level', 'warn']);
    expect(text.stdout).toMatch(/log\.level\s+"warn"\s+flag --log-level/);
  });
});

describe('help for one tool', () => {
  const help = (argv: string[]) =>
    runInProcess({ cwd: t.dir, env: isolatedEnv(t.dir) }, (config) => new McphostHelp(config).showHelp(argv));

  it('describes the tool named by plugin and tool, or by its published name', async () => {
    for (const argv of [
      ['call', 'kitchen', 'types', '--help'],
      ['call', 'kitchen_types', '--help'],
    ]) {
      const r = await help(argv);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('Echoes its arguments back as structured content');
      expect(r.stdout).toContain('$ mcphost call kitchen types [--text <string>]');
      expect(r.stdout).toContain('--start-offset <integer>');
      expect(r.stdout).toMatch(/PLUGIN SETTINGS \(set for this call\)\n {2}--greeting/);
    }
  });

  it('says what is wrong with the tool asked about, with the exit code of the table', async () => {
    const r = await help(['call', 'kitchen', 'ecco', '--help']);
    expect(r).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('did you mean echo') });
  });
});
