// `mcphost call` has two ways in: bin/run.js's fast path (src/cli/call-main.ts, no oclif loaded) for
// every call but `--help`, and the oclif command (src/commands/call.ts). Each case here runs both —
// the real binary for the first, the oclif command in-process for the second — and asks for the
// same stdout, stderr and exit code; and the fast path must see the installed plugins oclif sees.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Call from '../../src/commands/call.js';
import { installedWithoutOclif } from '../../src/cli/call-main.js';
import { installedPackages, type OclifPluginLike } from '../../src/loader/installed.js';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { FIXTURES, KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';
import { runCommand, runInProcess } from './run-command.js';

const t = tempDir();
t.write('.mcprc.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\n    greeting: hi\n`);
await approve(t.dir);
const env = isolatedEnv(t.dir);

const both = async (argv: string[], extra: Record<string, string> = {}) => {
  const [fast, full] = await Promise.all([
    runCli(['call', ...argv], { cwd: t.dir, env: { ...env, ...extra } }),
    runCommand(Call, argv, { cwd: t.dir, env: { ...env, ...extra } }),
  ]);
  return { fast, full };
};

describe('mcphost call: fast path and oclif path', () => {
  it.each([
    ['a call', ['kitchen', 'echo', '--message', 'world', '--times', '2']],
    ['a call by published name, --json', ['kitchen_echo', '--message', 'x', '--json']],
    ['an unknown flag', ['kitchen', 'echo', '--mesage', 'x']],
    ['a bad value, --json', ['kitchen', 'add', '--a', 'one', '--b', '2', '--json']],
    ['a tool error', ['kitchen', 'boom']],
    ['a tool error, --json', ['kitchen', 'boom', '--json']],
    ['an unknown plugin', ['nosuch', 'x']],
    ['no tool named', []],
  ])('%s: same stdout, stderr and exit code', async (_, argv) => {
    const { fast, full } = await both(argv);
    expect(fast).toEqual(full);
  });

  it('MCPHOST_CONTENT_TYPE=json turns JSON output on in both', async () => {
    const { fast, full } = await both(['kitchen', 'boom'], { MCPHOST_CONTENT_TYPE: 'json' });
    expect(JSON.parse(fast.stdout).error.exit).toBe(5);
    expect(fast).toEqual(full);
  });
});

describe('installed plugins without oclif', () => {
  it('are the user and linked plugins oclif lists; a plugin with oclif hooks leaves the call to oclif', async () => {
    const home = tempDir('mcphost-data-');
    const dataDir = path.join(home.dir, '.local/share/mcphost');
    const userRoot = path.join(dataDir, 'node_modules/mcphost-plugin-user');
    mkdirSync(userRoot, { recursive: true });
    writeFileSync(
      path.join(userRoot, 'package.json'),
      JSON.stringify({
        name: 'mcphost-plugin-user',
        version: '1.2.3',
        type: 'module',
        oclif: {},
        mcphost: { backend: './b.js', name: 'usr' },
      }),
    );
    writeFileSync(path.join(userRoot, 'b.js'), 'export default {};\n');
    const record = (plugins: unknown[]) =>
      writeFileSync(path.join(dataDir, 'package.json'), JSON.stringify({ private: true, oclif: { schema: 1, plugins } }));
    const hello = path.join(FIXTURES, 'mcphost-plugin-hello');
    record([
      { name: 'mcphost-plugin-user', type: 'user', tag: 'latest' },
      { name: 'mcphost-plugin-hello', type: 'link', root: hello },
    ]);
    const homeEnv = isolatedEnv(home.dir);
    let fromOclif: ReturnType<typeof installedPackages> = [];
    await runInProcess({ cwd: home.dir, env: homeEnv }, async (config) => {
      fromOclif = installedPackages(config.getPluginsList() as unknown as OclifPluginLike[]);
    });
    const sorted = (list: typeof fromOclif) => [...list].sort((a, b) => a.backendName.localeCompare(b.backendName));
    expect(sorted(fromOclif).map((p) => p.backendName)).toEqual(['hello', 'usr']);
    expect(sorted(installedWithoutOclif(homeEnv as NodeJS.ProcessEnv)!)).toEqual(sorted(fromOclif));

    writeFileSync(
      path.join(userRoot, 'package.json'),
      JSON.stringify({
        name: 'mcphost-plugin-user',
        version: '1.2.3',
        oclif: { hooks: { init: './hook.js' } },
        mcphost: { backend: './b.js' },
      }),
    );
    expect(installedWithoutOclif(homeEnv as NodeJS.ProcessEnv)).toBeUndefined();
  });
});
