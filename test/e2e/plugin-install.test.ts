// The README's "Writing a backend" example as a user would ship it: its two files taken from the
// README, packed with `npm pack`, installed from the tarball by a relative path (offline: npm may not
// touch the network), called, listed and uninstalled by the name `mcphost plugins` shows.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { docSection } from '../helpers/docs.js';
import { tempDir } from '../helpers/tmp.js';

/** The fenced blocks of one README section, by language. */
function readmeBlocks(section: string): Array<{ lang: string; body: string }> {
  const body = docSection(`## ${section}`);
  return [...body.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], body: m[2] }));
}

describe("the README's backend example", () => {
  it('packs, installs from the tarball offline, answers `call hello greet`, and uninstalls by its backend name', async () => {
    const blocks = readmeBlocks('Writing a backend');
    const backend = blocks.find((b) => b.lang === 'js')!.body;
    const pjson = JSON.parse(blocks.find((b) => b.lang === 'json')!.body) as {
      name: string;
      version: string;
      mcphost: { backend: string };
    };
    expect(backend).toContain("from 'mcphost'");

    const home = tempDir('mcphost-home-');
    const src = path.join(home.dir, 'hello');
    mkdirSync(src);
    writeFileSync(path.join(src, 'package.json'), JSON.stringify(pjson, null, 2));
    writeFileSync(path.join(src, pjson.mcphost.backend), backend);
    const env = isolatedEnv(home.dir, { npm_config_offline: 'true', npm_config_audit: 'false', npm_config_update_notifier: 'false' });
    execFileSync('npm', ['pack', '--pack-destination', home.dir], { cwd: src, stdio: 'ignore', env: env as NodeJS.ProcessEnv });
    const run = (args: string[]) => runCli(args, { cwd: home.dir, env, timeout: 60_000 });

    const install = await run(['plugins:install', `./${pjson.name}-${pjson.version}.tgz`]);
    expect(install.exitCode, install.stderr).toBe(0);
    expect(install.stdout).toContain('hello 1.0.0 loads (tools: greet)');
    expect(await run(['call', 'hello', 'greet', '--name', 'Ada'])).toMatchObject({ exitCode: 0, stdout: 'hello, Ada!' });
    // In the plugin's own folder too: its package.json's "mcphost" key is its manifest, not a config.
    const inFolder = await runCli(['call', 'hello', 'greet', '--name', 'Ada'], { cwd: src, env, timeout: 60_000 });
    expect(inFolder, inFolder.stderr).toMatchObject({ exitCode: 0, stdout: 'hello, Ada!' });

    expect((await run(['plugins:uninstall', 'hello'])).exitCode).toBe(0);
    const gone = await run(['call', 'hello', 'greet', '--name', 'Ada']);
    expect(gone.exitCode).toBe(2);
    expect(gone.stderr).toContain('plugin hello not found');
  }, 90_000);
});
