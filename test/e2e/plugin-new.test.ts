// `mcphost plugins:new` as a new plugin author uses it: the package it writes links, installs from
// its packed tarball offline, answers `call <name> greet` at once (in its own folder too), and its
// own test passes against this mcphost. Bad names and an existing folder are refused.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { BIN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

describe('mcphost plugins:new', () => {
  it('writes a package that links, installs from its tarball and answers a call at once; its own test passes', async () => {
    const home = tempDir('mcphost-new-').dir;
    const env = isolatedEnv(home, { npm_config_offline: 'true', npm_config_audit: 'false', npm_config_update_notifier: 'false' });
    const run = (args: string[], cwd = home) => runCli(args, { cwd, env, timeout: 60_000 });

    const made = await run(['plugins:new', 'tally']);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(made.stdout).toContain('wrote mcphost-plugin-tally/');
    expect(made.stdout).toContain('plugins:link ./mcphost-plugin-tally');
    const dir = path.join(home, 'mcphost-plugin-tally');
    const pjson = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pjson).toMatchObject({ name: 'mcphost-plugin-tally', oclif: {}, mcphost: { backend: './backend.js' } });

    const link = await run(['plugins:link', './mcphost-plugin-tally', '--no-install']);
    expect(link.exitCode, link.stderr).toBe(0);
    expect(await run(['call', 'tally', 'greet', '--name', 'Ada'])).toMatchObject({ exitCode: 0, stdout: 'hello, Ada!' });
    expect(await run(['call', 'tally', 'greet', '--name', 'Ada'], dir)).toMatchObject({ exitCode: 0, stdout: 'hello, Ada!' });
    expect((await run(['plugins:unlink', 'mcphost-plugin-tally'])).exitCode).toBe(0);

    const own = await execa('npm', ['test'], {
      cwd: dir,
      env: { ...env, MCPHOST_BIN: BIN },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    expect(own.exitCode, own.stdout + own.stderr).toBe(0);
    expect(own.stdout).toMatch(/# pass 2/);

    execFileSync('npm', ['pack', '--pack-destination', home], { cwd: dir, stdio: 'ignore', env: env as NodeJS.ProcessEnv });
    const install = await run(['plugins:install', './mcphost-plugin-tally-0.1.0.tgz']);
    expect(install.exitCode, install.stderr).toBe(0);
    expect(install.stdout).toContain('tally 0.1.0 loads (tools: greet)');
    expect(await run(['call', 'tally', 'greet', '--name', 'Ada'])).toMatchObject({ exitCode: 0, stdout: 'hello, Ada!' });
  }, 120_000);

  it('refuses a bad name, a built-in name and a folder that exists, saying why', async () => {
    const home = tempDir('mcphost-new-').dir;
    const run = (args: string[]) => runCli(args, { cwd: home, env: isolatedEnv(home) });
    const bad = await run(['plugins:new', 'My_Plugin']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('Expected the plugin name to be lower-case letters, digits and dashes');
    const builtin = await run(['plugins:new', 'godot']);
    expect(builtin.exitCode).toBe(1);
    expect(builtin.stderr).toContain('"godot" is a built-in plugin\'s name');
    expect((await run(['plugins:new', 'twice'])).exitCode).toBe(0);
    const again = await run(['plugins:new', 'twice']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain(`${path.join(home, 'mcphost-plugin-twice')} already exists`);
  }, 60_000);
});
