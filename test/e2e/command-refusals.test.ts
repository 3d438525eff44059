// What the commands refuse, said by the real binary, for the refusals whose wording moved into
// src/app with the commands' use cases (serve, plugins:install, plugins:uninstall, plugins:link,
// audit) and that no other test states: the message a user reads and the documented exit code.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, trustCli } from '../helpers/cli.js';
import { KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir('mcphost-refusals-');
t.write('.mcprc.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\nhttp:\n  auth:\n    issuer: https://login.example.com\n`);
const env = isolatedEnv(t.dir, { npm_config_offline: 'true', npm_config_audit: 'false', npm_config_update_notifier: 'false' });
await trustCli(t.dir, env);
const run = (args: string[]) => runCli(args, { cwd: t.dir, env, timeout: 60_000 });

describe('command refusals', () => {
  it('serve: http.auth on a public address needs an audience (exit 3)', async () => {
    const r = await run(['serve', '--transport', 'http', '--host', '0.0.0.0', '--port', '0', '--plugins', 'kitchen']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('http.auth.audience is needed on 0.0.0.0: set it to the URL clients reach mcphost at');
  });

  it('plugins:install: a local path that does not exist (exit 1), naming the absolute path', async () => {
    const r = await run(['plugins:install', './no-such-plugin.tgz']);
    expect(r.exitCode).toBe(1);
    // oclif's own error (this command is its installer's) wraps the message at the terminal's width.
    const message = r.stderr.replace(/\s*\n\s*›\s*/g, ' ');
    expect(message).toContain(`cannot install ./no-such-plugin.tgz: ${path.join(t.dir, 'no-such-plugin.tgz')} does not exist`);
  });

  it('plugins:uninstall: a name that is not installed (exit 2), with what is', async () => {
    const r = await run(['plugins:uninstall', 'nosuch']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Error: nosuch is not installed. Installed backends: none');
  });

  it('plugins:link: a folder whose package.json names no backend is linked with a warning', async () => {
    const dir = path.join(t.dir, 'plain');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'plain-pkg', version: '1.0.0', oclif: {} }));
    const r = await run(['plugins:link', dir, '--no-install']);
    expect(r.stderr).toContain('Warning: plain-pkg is linked, but its package.json names no backend');
    expect((await run(['plugins:uninstall', dir])).exitCode).toBe(0);
  });

  it('audit: no trail configured and none given (exit 1)', async () => {
    const r = await run(['audit']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('no audit trail: set audit.file in the config (serve writes it), or pass --file');
  });
});
