import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { FIXTURES, KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir();
t.write('.mcprc.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\n    greeting: \${GREETING:-hey}\nhttp:\n  token: \${SECRET:-none}\n`);
const env = isolatedEnv(t.dir);
const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { cwd: t.dir, env: { ...env, ...extra } });

describe('inspection commands', () => {
  it('tools lists names, titles and one-line descriptions; --json gives full schemas', async () => {
    const text = await cli(['tools']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^kitchen_echo\s+Echo\s+Returns the message/m);
    const json = JSON.parse((await cli(['tools', 'kitchen', '--json'])).stdout);
    expect(json.find((x: { name: string }) => x.name === 'kitchen_add')).toMatchObject({
      plugin: 'kitchen',
      localName: 'add',
      inputSchema: { type: 'object', required: ['a', 'b'] },
    });
  });

  it('resources and prompts list what the backends offer', async () => {
    expect((await cli(['resources'])).stdout).toMatch(/kitchen:\/\/dish\/\{name\}\s+template/);
    const prompts = JSON.parse((await cli(['prompts', '--json'])).stdout);
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

  it('read prints a resource, and exits 1 for an unknown URI', async () => {
    expect((await cli(['read', 'kitchen://menu'])).stdout).toBe('# Menu\n- soup\n- salad\n'.trimEnd());
    const missing = await cli(['read', 'kitchen://nothing']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('no resource kitchen://nothing');
  });

  it('config prints resolved values with their sources, redacting the token', async () => {
    const r = await cli(['config', '--json'], { GREETING: 'howdy', MCPHOST_PORT: '7999', SECRET: 'hunter2' });
    const report = JSON.parse(r.stdout);
    expect(report.file).toBe(path.join(t.dir, '.mcprc.yaml'));
    expect(report.config.plugins.kitchen.greeting).toBe('howdy');
    expect(report.config.http.port).toBe(7999);
    expect(report.config.http.token).toBe('<redacted>');
    expect(r.stdout).not.toContain('hunter2');
    expect(report.sources).toMatchObject({
      'http.port': 'env MCPHOST_PORT',
      'plugins.kitchen.greeting': `file ${report.file}`,
      'plugins.kitchen.failStart': 'default',
    });
    const text = await cli(['config', '--log-level', 'warn']);
    expect(text.stdout).toMatch(/log\.level\s+"warn"\s+flag --log-level/);
  });

  it('doctor reports each backend and exits non-zero when one is broken', async () => {
    const ok = await cli(['doctor']);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toMatch(/✔ kitchen 1\.2\.3\s+greeting is hey/);
    const broken = t.write('broken.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\n    failStart: true\n  ghost: {}\n`);
    const bad = await cli(['doctor', '--config', broken, '--json']);
    expect(bad.exitCode).toBe(2);
    const report = JSON.parse(bad.stdout);
    expect(report.ok).toBe(false);
    expect(report.plugins).toEqual([
      expect.objectContaining({ name: 'kitchen', ok: false, message: 'failStart is set: unset it to start' }),
      expect.objectContaining({ name: 'ghost', ok: false, stage: 'load', message: expect.stringContaining('plugin ghost not found') }),
    ]);
  });

  it('prints the version quickly and the help lists every command', async () => {
    expect((await cli(['--version'])).stdout).toMatch(/^mcphost\/\d+\.\d+\.\d+ /);
    const help = (await cli(['--help'])).stdout;
    for (const command of ['call', 'config', 'doctor', 'plugins', 'prompts', 'read', 'resources', 'serve', 'tools'])
      expect(help).toMatch(new RegExp(`^  ${command}\\s`, 'm'));
  });
});

describe('third-party backends', () => {
  const home = tempDir('mcphost-home-');
  const henv = isolatedEnv(home.dir);
  const run = (args: string[]) => runCli(args, { cwd: home.dir, env: henv });

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

  it('installs a backend package from a tarball with plugins:install', async () => {
    execFileSync('npm', ['pack', path.join(FIXTURES, 'mcphost-plugin-hello'), '--pack-destination', home.dir], {
      stdio: 'ignore',
      env: henv as NodeJS.ProcessEnv,
    });
    const install = await run(['plugins:install', `file:${path.join(home.dir, 'mcphost-plugin-hello-0.3.0.tgz')}`]);
    expect(install.exitCode).toBe(0);
    expect((await run(['call', 'hello', 'greet', '--name', 'Bob'])).stdout).toBe('hello, Bob!');
    const served = JSON.parse((await run(['tools', '--plugins', 'hello', '--json'])).stdout);
    expect(served.map((x: { name: string }) => x.name)).toEqual(['hello_greet']);
  });
});
