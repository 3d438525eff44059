// Issue 21, items 1 and 2 at the config level: the search is bounded (home, repository top, only the
// working directory outside home), files others own or can write are refused, code and commands
// of a found file wait for `mcphost trust`, and a changed file waits again. Each attack is planted
// for real (files, `git init`, chown) and the command paths run in-process; test/e2e/trust.test.ts
// repeats the main ones through the binary.
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { openConfig } from '../../src/app/open.js';
import { connectClient } from '../../src/app/connect.js';
import { manageTrust } from '../../src/app/trust.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import ConfigCommand from '../../src/commands/config.js';
import Doctor from '../../src/commands/doctor.js';
import Tools from '../../src/commands/tools.js';
import { ConfigError } from '../../src/config/errors.js';
import { findConfig } from '../../src/config/find.js';
import { searchDirs } from '../../src/config/search.js';
import { trustStoreFile } from '../../src/config/trust.js';
import { isolatedEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { runCommand } from '../cli/run-command.js';

/** A CommonJS config that, when run, leaves `marker` behind (the attacker's payload). */
const payload = (marker: string) =>
  `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = { plugins: { pob: {} } };\n`;

type CommandClass = Parameters<typeof runCommand>[0];
const COMMANDS: Array<[string, CommandClass]> = [
  ['config', ConfigCommand],
  ['tools', Tools],
  ['doctor', Doctor],
];

describe('the bounded search', () => {
  it('never reaches a .mcprc.js planted in a parent folder outside home: only the working directory is searched there', async () => {
    const planted = tempDir('mcphost-planted-');
    const home = tempDir('mcphost-home-');
    const marker = path.join(planted.dir, 'RAN');
    planted.write('.mcprc.js', payload(marker));
    const cwd = path.join(planted.dir, 'sub');
    mkdirSync(cwd);
    const env = isolatedEnv(home.dir);
    for (const [name, command] of COMMANDS) {
      const r = await runCommand(command, [], { cwd, env });
      expect(r.stdout + r.stderr, name).not.toContain('.mcprc.js');
    }
    expect(existsSync(marker)).toBe(false);
    expect((await findConfig({ cwd, env })).file).toBeUndefined();
    expect(searchDirs(cwd, env)).toEqual([cwd]);
  });

  it('stops at the top of a repository inside home: a .mcprc.js above it never runs, the repository’s own .mcprc is found', async () => {
    const home = tempDir('mcphost-home-');
    const env = isolatedEnv(home.dir);
    const marker = path.join(home.dir, 'RAN');
    const work = path.join(home.dir, 'work');
    const repo = path.join(work, 'game');
    const cwd = path.join(repo, 'src', 'scenes');
    mkdirSync(cwd, { recursive: true });
    writeFileSync(path.join(work, '.mcprc.js'), payload(marker));
    execFileSync('git', ['init', '-q', repo]);
    for (const [name, command] of COMMANDS) {
      const r = await runCommand(command, [], { cwd, env });
      expect(r.stdout + r.stderr, name).not.toContain('.mcprc.js');
    }
    expect(existsSync(marker)).toBe(false);
    expect(searchDirs(cwd, env)).toEqual([cwd, path.dirname(cwd), repo]);
    writeFileSync(path.join(repo, '.mcprc'), 'plugins:\n  pob: {}\n');
    const found = await findConfig({ cwd, env });
    expect(found).toMatchObject({ file: path.join(repo, '.mcprc'), raw: { plugins: { pob: {} } } });
    expect(existsSync(marker)).toBe(false);
  });

  it('searches up to home outside a repository, then the user’s own folder, whose files need no approval', async () => {
    const home = tempDir('mcphost-home-');
    const env = isolatedEnv(home.dir);
    const cwd = path.join(home.dir, 'proj', 'a');
    mkdirSync(cwd, { recursive: true });
    expect(searchDirs(cwd, env)).toEqual([cwd, path.dirname(cwd), home.dir]);
    const own = path.join(home.dir, '.config', 'mcphost');
    mkdirSync(own, { recursive: true });
    writeFileSync(path.join(own, 'config.yaml'), `servers:\n  mine: { command: ${JSON.stringify(process.execPath)} }\n`);
    const found = await findConfig({ cwd, env });
    expect(found).toMatchObject({ file: path.join(own, 'config.yaml'), trust: { trusted: true, reason: 'user' } });
    writeFileSync(path.join(home.dir, 'proj', '.mcprc'), 'servers:\n  theirs: { command: x }\n');
    expect(await findConfig({ cwd, env })).toMatchObject({
      file: path.join(home.dir, 'proj', '.mcprc'),
      trust: { trusted: false, reason: 'not-approved' },
    });
  });

  it('never runs a cosmiconfig meta-config (.config/config.js) of the working directory', async () => {
    const t = tempDir();
    const marker = path.join(t.dir, 'RAN');
    mkdirSync(path.join(t.dir, '.config'));
    t.write('.config/config.js', payload(marker));
    t.write('.config/config.cjs', payload(marker));
    t.write('.mcprc', 'plugins:\n  pob: {}\n');
    await openConfig({ cwd: t.dir, env: isolatedEnv(t.dir) as NodeJS.ProcessEnv, writeLog: () => undefined });
    expect(existsSync(marker)).toBe(false);
  });
});

describe('files others own or can write', () => {
  const isRoot = process.getuid?.() === 0;

  it('refuses a config group or others can write, naming the file and the chmod that fixes it (exit 3)', async () => {
    const t = tempDir();
    const file = t.write('.mcprc', 'plugins:\n  pob: {}\n');
    chmodSync(file, 0o666);
    const error = await findConfig({ cwd: t.dir, env: { HOME: t.dir } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(exitCodeFor(error)).toBe(3);
    expect((error as Error).message).toBe(
      `Refusing config file ${file}: group and others can write it (mode 0666), so another user could run commands as you through it. Fix: chmod go-w ${file}`,
    );
    chmodSync(file, 0o644);
    expect((await findConfig({ cwd: t.dir, env: { HOME: t.dir } })).file).toBe(file);
  });

  it.runIf(isRoot)('refuses a config another user owns, for every command, without running it (exit 3)', async () => {
    const t = tempDir();
    const marker = path.join(t.dir, 'RAN');
    const file = t.write('.mcprc.js', payload(marker));
    chownSync(file, 65534, 65534);
    for (const [name, command] of COMMANDS) {
      const r = await runCommand(command, [], { cwd: t.dir, env: isolatedEnv(t.dir) });
      expect(r.exitCode, name).toBe(3);
      expect(r.stderr, name).toContain(`Refusing config file ${file}: it belongs to another user (uid 65534; you are uid 0)`);
    }
    // Not even `mcphost trust` takes it.
    await expect(manageTrust({ cwd: t.dir, env: isolatedEnv(t.dir) as NodeJS.ProcessEnv, action: 'approve' })).rejects.toThrow(
      'belongs to another user',
    );
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a record of approvals that others can write', async () => {
    const t = tempDir();
    const env = isolatedEnv(t.dir) as NodeJS.ProcessEnv;
    t.write('.mcprc', 'servers:\n  x: { command: x }\n');
    await manageTrust({ cwd: t.dir, env, action: 'approve' });
    chmodSync(trustStoreFile(env), 0o666);
    await expect(findConfig({ cwd: t.dir, env })).rejects.toThrow(
      `Refusing approval record ${trustStoreFile(env)}: group and others can write it`,
    );
  });
});

describe('folders others can write (issue 36, item 4)', () => {
  const isRoot = process.getuid?.() === 0;

  it('refuses a config whose folder group or others can write, for every command, without running it (exit 3)', async () => {
    const t = tempDir();
    const dir = path.join(t.dir, 'shared');
    mkdirSync(dir);
    const marker = path.join(t.dir, 'RAN');
    const file = path.join(dir, '.mcprc.js');
    writeFileSync(file, payload(marker));
    const env = isolatedEnv(t.dir);
    await manageTrust({ cwd: dir, env: env as NodeJS.ProcessEnv, action: 'approve' });
    chmodSync(dir, 0o775);
    for (const [name, command] of COMMANDS) {
      const r = await runCommand(command, [], { cwd: dir, env });
      expect(r.exitCode, name).toBe(3);
      expect(r.stderr, name).toContain(
        `Refusing config file ${file}: group and others can write its folder ${dir} (mode 0775), so another user could swap the file for another after mcphost checked it. Fix: chmod go-w ${dir}`,
      );
    }
    await expect(manageTrust({ cwd: dir, env: env as NodeJS.ProcessEnv, action: 'approve' })).rejects.toThrow('can write its folder');
    expect(existsSync(marker)).toBe(false);
    // A sticky folder (as /tmp is) lets nobody but a file's owner rename or remove it: accepted.
    chmodSync(dir, 0o1777);
    expect((await findConfig({ cwd: dir, env: env as NodeJS.ProcessEnv })).trust?.trusted).toBe(true);
    expect(existsSync(marker)).toBe(true);
  });

  it.runIf(isRoot)('refuses a config in a folder another user owns (exit 3)', async () => {
    const t = tempDir();
    const dir = path.join(t.dir, 'theirs');
    mkdirSync(dir);
    const file = path.join(dir, '.mcprc');
    writeFileSync(file, 'plugins:\n  pob: {}\n');
    chownSync(dir, 65534, 65534);
    await expect(findConfig({ cwd: dir, env: { HOME: t.dir } })).rejects.toThrow(
      `Refusing config file ${file}: its folder ${dir} belongs to another user (uid 65534; you are uid 0)`,
    );
  });
});

describe('an approved code config runs the bytes that were approved (issue 36, item 4)', () => {
  it('from a private copy beside it, so its relative imports resolve; nothing is left behind', async () => {
    const t = tempDir();
    const env = isolatedEnv(t.dir) as NodeJS.ProcessEnv;
    const esm = path.join(t.dir, 'esm');
    const cjs = path.join(t.dir, 'cjs');
    mkdirSync(esm);
    mkdirSync(cjs);
    writeFileSync(path.join(esm, 'settings.mjs'), 'export const port = 7123;\n');
    writeFileSync(path.join(esm, '.mcprc.mjs'), "import { port } from './settings.mjs';\nexport default { http: { port } };\n");
    writeFileSync(path.join(cjs, 'settings.js'), 'module.exports = { port: 7124 };\n');
    writeFileSync(path.join(cjs, '.mcprc.js'), "module.exports = { http: { port: require('./settings.js').port } };\n");
    for (const [dir, port] of [
      [esm, 7123],
      [cjs, 7124],
    ] as const) {
      await manageTrust({ cwd: dir, env, action: 'approve' });
      const { resolved } = await openConfig({ cwd: dir, env, writeLog: () => undefined });
      expect(resolved.config.http.port).toBe(port);
      expect(readdirSync(dir).sort()).toEqual(dir === esm ? ['.mcprc.mjs', 'settings.mjs'] : ['.mcprc.js', 'settings.js']);
    }
  });
});

describe('approval', () => {
  it('runs a found .mcprc.js only once approved, and not again after it changed', async () => {
    const t = tempDir();
    const env = isolatedEnv(t.dir) as NodeJS.ProcessEnv;
    const marker = path.join(t.dir, 'RAN');
    const file = t.write('.mcprc.js', payload(marker));
    const before = await findConfig({ cwd: t.dir, env });
    expect(before).toMatchObject({ file, raw: {}, unread: true, trust: { trusted: false, reason: 'not-approved' } });
    expect(existsSync(marker)).toBe(false);
    const report = await manageTrust({ cwd: t.dir, env, action: 'approve' });
    expect(report.files).toEqual([expect.objectContaining({ file, state: 'approved' })]);
    expect((await findConfig({ cwd: t.dir, env })).raw).toEqual({ plugins: { pob: {} } });
    expect(existsSync(marker)).toBe(true);
    t.write('.mcprc.js', payload(`${marker}2`));
    expect(await findConfig({ cwd: t.dir, env })).toMatchObject({ unread: true, trust: { trusted: false, reason: 'changed' } });
    expect(existsSync(`${marker}2`)).toBe(false);
    expect((await manageTrust({ cwd: t.dir, env, action: 'list' })).files).toEqual([expect.objectContaining({ file, state: 'changed' })]);
    await manageTrust({ cwd: t.dir, env, action: 'revoke' });
    expect((await manageTrust({ cwd: t.dir, env, action: 'list' })).files).toEqual([]);
  });

  it('lists what waits for approval beside the plugins that need nothing from the file, which keep working', async () => {
    const t = tempDir();
    const env = isolatedEnv(t.dir);
    const marker = path.join(t.dir, 'RAN');
    const file = t.write(
      '.mcprc',
      `plugins:\n  pob: {}\nservers:\n  fx:\n    command: ${JSON.stringify(process.execPath)}\n    args: ['-e', ${JSON.stringify(`require('fs').writeFileSync(${JSON.stringify(marker)}, '')`)}]\n`,
    );
    const hint = `not trusted: run \`mcphost trust ${file}\``;
    const tools = await runCommand(Tools, [], { cwd: t.dir, env });
    expect(tools.exitCode).toBe(2);
    expect(tools.stdout).toMatch(/^pob_decode\s/m);
    expect(tools.stdout).toMatch(new RegExp(`^fx +${hint.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&')}$`, 'm'));
    const doctor = await runCommand(Doctor, ['--json'], { cwd: t.dir, env });
    expect(JSON.parse(doctor.stdout).plugins.map((p: { name: string; ok: boolean; message: string }) => [p.name, p.ok, p.message])).toEqual(
      [
        ['pob', true, expect.any(String)],
        ['fx', false, `fx (servers.fx in ${file}): ${hint}`],
      ],
    );
    expect(doctor.exitCode).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });

  it('says what approving a file lets run', async () => {
    const t = tempDir();
    t.write('.mcprc', 'servers:\n  fx: { command: node, args: [server.js] }\nplugins:\n  mine: { module: ./mine.js }\n');
    t.write('.mcp.json', JSON.stringify({ mcpServers: { web: { url: 'http://127.0.0.1:9/mcp' } } }));
    const report = await manageTrust({ cwd: t.dir, env: isolatedEnv(t.dir) as NodeJS.ProcessEnv, action: 'approve' });
    expect(report.files.map((f) => [path.basename(f.file), f.runs])).toEqual([
      ['.mcprc', ['servers.fx: node server.js', 'plugins.mine.module: ./mine.js']],
      ['.mcp.json', ["claude-code's mcpServers.web: http://127.0.0.1:9/mcp"]],
    ]);
  });

  it('withholds what widens the host (bind address, origins, hosts, file roots) until the file is approved', async () => {
    const t = tempDir();
    const env = isolatedEnv(t.dir) as NodeJS.ProcessEnv;
    t.write('.mcprc', "http:\n  host: 0.0.0.0\n  token: t0k\n  allowedOrigins: ['https://evil.example']\nfiles:\n  roots: [/]\n");
    const lines: string[] = [];
    const before = await openConfig({ cwd: t.dir, env, writeLog: (l) => lines.push(l) });
    expect(before.resolved.config.http).toMatchObject({ host: '127.0.0.1', token: 't0k', allowedOrigins: [] });
    expect(before.resolved.config.files.roots).toBeUndefined();
    expect(lines.join('')).toContain('http.host, http.allowedOrigins, files.roots not applied (defaults used): not trusted');
    await manageTrust({ cwd: t.dir, env, action: 'approve' });
    const after = await openConfig({ cwd: t.dir, env, writeLog: () => undefined });
    expect(after.resolved.config.http).toMatchObject({ host: '0.0.0.0', allowedOrigins: ['https://evil.example'] });
    expect(after.resolved.config.files.roots).toEqual(['/']);
  });

  it('connect will not name a project file that would start something until it is approved (naming it approves it)', async () => {
    const t = tempDir();
    const env = isolatedEnv(t.dir) as NodeJS.ProcessEnv;
    const file = t.write('.mcprc', `servers:\n  fx: { command: ${JSON.stringify(process.execPath)} }\nplugins:\n  pob: {}\n`);
    const request = {
      cwd: t.dir,
      env,
      writeLog: () => undefined,
      client: 'cursor' as const,
      plugins: ['pob'],
      node: '/n/node',
      bin: '/m/run.js',
      dryRun: true,
    };
    await expect(connectClient(request)).rejects.toThrow(
      `${file} would be named in the client's entry, which approves it: not trusted: run \`mcphost trust ${file}\` first`,
    );
    await manageTrust({ cwd: t.dir, env, action: 'approve' });
    // A project's Cursor file names it relative to the project, as Cursor expands it.
    expect((await connectClient(request)).entry.env).toMatchObject({ MCPHOST_CONFIG: '${workspaceFolder}/.mcprc' });
  });

  it('MCPHOST_TRUST_ALL=1 approves every file found, saying so at error level; any other value is refused (exit 3)', async () => {
    const t = tempDir();
    const file = t.write('.mcprc', 'servers:\n  x: { command: x }\n');
    const lines: string[] = [];
    const opened = await openConfig({
      cwd: t.dir,
      env: isolatedEnv(t.dir, { MCPHOST_TRUST_ALL: '1' }) as NodeJS.ProcessEnv,
      quiet: true,
      writeLog: (l) => lines.push(l),
    });
    expect(opened.resolved.trust).toMatchObject({ trusted: true, reason: 'trust-all' });
    expect(lines).toEqual([
      `[mcphost] error: MCPHOST_TRUST_ALL=1: ${file} runs without approval (commands, modules and code it names); unset it to stop\n`,
    ]);
    const error = await openConfig({ cwd: t.dir, env: isolatedEnv(t.dir, { MCPHOST_TRUST_ALL: 'yes' }) as NodeJS.ProcessEnv }).catch(
      (e: unknown) => e,
    );
    expect(exitCodeFor(error)).toBe(3);
    expect((error as Error).message).toContain('MCPHOST_TRUST_ALL="yes": set it to 1');
  });
});
