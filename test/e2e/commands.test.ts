// The real binary, once per command family: listing, read, inspection, help and version, the
// exit codes oclif itself decides (a flag typo, an unknown command), and third-party backends.
// Everything else about these commands runs in-process (test/cli, test/app).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Config } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, trustCli } from '../helpers/cli.js';
import { FIXTURES, KITCHEN, REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir();
t.write('.mcprc.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\n`);
const env = isolatedEnv(t.dir);
// The file imports a module: approved first, as its user would.
await trustCli(t.dir, env);
const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { cwd: t.dir, env: { ...env, ...extra } });

describe('the binary, per command family', () => {
  it('tools, read and doctor print what they found', async () => {
    const [tools, read, doctor] = await Promise.all([
      cli(['tools']),
      cli(['read', 'kitchen://menu']),
      cli(['doctor', '--json', '--config', t.write('broken.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\n  ghost: {}\n`)]),
    ]);
    expect(tools).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/^kitchen_echo\s+Echo\s+Returns the message/m) });
    expect(read).toMatchObject({ exitCode: 0, stdout: '# Menu\n- soup\n- salad' });
    expect(doctor.exitCode).toBe(2);
    expect(JSON.parse(doctor.stdout)).toMatchObject({
      ok: false,
      error: { exit: 2, message: expect.stringContaining('plugin ghost not found') },
      plugins: [
        expect.objectContaining({ name: 'kitchen', ok: true }),
        expect.objectContaining({ name: 'ghost', ok: false, stage: 'load' }),
      ],
    });
  });

  it('exits 1 for a flag typo (compact JSON with --json) and for an unknown command, with a did-you-mean', async () => {
    const [typo, command] = await Promise.all([cli(['tools', '--plugin', 'kitchen', '--json']), cli(['tols'])]);
    expect(typo.exitCode).toBe(1);
    expect(JSON.parse(typo.stdout)).toEqual({
      error: { message: 'unknown flag --plugin for mcphost tools; did you mean --plugins? (see mcphost tools --help)', exit: 1 },
    });
    expect(command).toMatchObject({
      exitCode: 1,
      stderr: 'Error: unknown command tols; did you mean mcphost tools? (mcphost --help lists the commands)',
    });
  });

  it('prints the version, the help lists every command, and shell completion knows their flags', async () => {
    const [version, help, completion] = await Promise.all([cli(['--version']), cli(['--help']), cli(['autocomplete', 'bash'])]);
    expect(version.stdout).toMatch(/^mcphost\/\d+\.\d+\.\d+ /);
    // bin/run.js answers --version without loading oclif: the same line oclif's own would be.
    const oclif = await Config.load({ root: REPO });
    expect(version.stdout).toBe(oclif.userAgent);
    for (const command of ['autocomplete', 'call', 'config', 'doctor', 'plugins', 'prompts', 'read', 'resources', 'serve', 'tools'])
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\s`, 'm'));
    expect(completion.exitCode).toBe(0);
    expect(completion.stdout).toContain('mcphost autocomplete:script bash');
    const script = readFileSync(path.join(t.dir, '.cache/mcphost/autocomplete/functions/bash/mcphost.bash'), 'utf8');
    expect(script).toMatch(/^tools --json --config --log-level --quiet --plugins --tokens$/m);
  });
});

describe('third-party backends', () => {
  const home = tempDir('mcphost-home-');
  const henv = isolatedEnv(home.dir);
  const run = (args: string[]) => runCli(args, { cwd: home.dir, env: henv });

  // Installing from a packed tarball is test/e2e/plugin-install.test.ts (the README's own example).
  it('links a local backend package, lists it with its version, and calls it', async () => {
    const link = await run(['plugins:link', path.join(FIXTURES, 'mcphost-plugin-hello'), '--no-install']);
    expect(link.exitCode).toBe(0);
    const listed = JSON.parse((await run(['plugins', '--json'])).stdout);
    expect(listed).toContainEqual(
      expect.objectContaining({ name: 'hello', kind: 'installed', version: '0.3.0', package: 'mcphost-plugin-hello@0.3.0' }),
    );
    expect((await run(['call', 'hello', 'greet', '--name', 'Ada'])).stdout).toBe('hello, Ada!');
    expect((await run(['plugins:uninstall', 'mcphost-plugin-hello'])).exitCode).toBe(0);
    expect((await run(['call', 'hello', 'greet', '--name', 'Ada'])).exitCode).toBe(2);
  });

  it('undoes the link of a package whose backend does not load, saying why (exit 2)', async () => {
    const pkg = tempDir('mcphost-plugin-broken-');
    pkg.write(
      'package.json',
      JSON.stringify({ name: 'mcphost-plugin-broken', version: '1.0.0', type: 'module', oclif: {}, mcphost: { backend: './backend.js' } }),
    );
    pkg.write('backend.js', "throw new Error('module blew up while loading');\n");
    const link = await run(['plugins:link', pkg.dir, '--no-install']);
    expect(link.exitCode).toBe(2);
    expect(link.stderr).toContain('mcphost-plugin-broken was linked, but its backend does not load, so it was unlinked again');
    expect(link.stderr).toContain('module blew up while loading');
    const listed = JSON.parse((await run(['plugins', '--json'])).stdout) as Array<{ name: string }>;
    expect(listed.map((p) => p.name)).not.toContain('broken');
  });
});
