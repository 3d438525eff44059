// Issue 24 item 4: mcphost installs as users install CLIs, without a clone. The tarball `npm pack`
// makes (of the dist this run built; --ignore-scripts so packing does not rebuild dist under the
// other tests) installs globally into a temporary prefix, and the installed `mcphost` answers
// --version and decodes a real PoB share code; `npx --package <tarball>` runs it too. npm fetches
// the dependencies from the registry (or its cache): the same access `npm ci` needs. Issue 35 item 2:
// the README's git install lines, run as written against a clone of this repository (git+file://)
// on a fresh prefix: npm clones it, installs its devDependencies, builds it and packs it, and the
// tarball installs. Slow (a full `npm ci` and build inside npm's clone): one test.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { docSection } from '../helpers/docs.js';
import { REPO, SHARED_DATA } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string; license: string };

describe('installed from the packed tarball', () => {
  // An installed tree is thousands of files: removing it takes longer than the default hook budget.
  const work = { dir: mkdtempSync(path.join(tmpdir(), 'mcphost-install-')) };
  afterAll(() => rm(work.dir, { recursive: true, force: true }), 180_000);
  const env = { ...isolatedEnv(work.dir), npm_config_cache: process.env.npm_config_cache ?? path.join(process.env.HOME ?? '', '.npm') };
  const npm = (args: string[], cwd = work.dir) => execa('npm', args, { cwd, env, extendEnv: false, timeout: 240_000 });
  let tarball = '';

  it('packs with the LICENSE package.json names', async () => {
    const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work.dir], REPO);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = path.join(work.dir, info.filename);
    const files = info.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'bin/run.js', 'oclif.manifest.json', 'README.md']));
    expect(files.some((f) => f.startsWith('test/') || f.startsWith('src/'))).toBe(false);
    expect(readFileSync(path.join(REPO, 'LICENSE'), 'utf8')).toMatch(new RegExp(`^${pkg.license} License`));
  }, 120_000);

  it('npm install -g into a prefix gives a working mcphost', async () => {
    const prefix = path.join(work.dir, 'prefix');
    await npm(['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball]);
    const bin = path.join(prefix, 'bin', 'mcphost');
    expect(existsSync(bin)).toBe(true);
    const elsewhere = tempDir('mcphost-installed-').dir;
    const run = (args: string[]) => execa(bin, args, { cwd: elsewhere, env, extendEnv: false, reject: false, timeout: 60_000 });
    expect((await run(['--version'])).stdout).toContain(`mcphost/${pkg.version}`);
    const xml = readFileSync(path.join(SHARED_DATA, 'pob-builds/occvortex-3_26.xml'));
    const code = deflateSync(xml).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
    const decoded = await run(['call', 'pob', 'decode', '--code', code]);
    expect(decoded.exitCode).toBe(0);
    expect(decoded.stdout).toContain('className="Witch"');
  }, 300_000);

  it('npx --package <tarball> runs it without installing', async () => {
    const r = await execa('npx', ['--yes', '--prefer-offline', '--package', tarball, 'mcphost', '--version'], {
      cwd: tempDir('mcphost-npx-').dir,
      env,
      extendEnv: false,
      timeout: 240_000,
    });
    expect(r.stdout).toContain(`mcphost/${pkg.version}`);
  }, 300_000);
});

describe("the README's git install", () => {
  const work = { dir: mkdtempSync(path.join(tmpdir(), 'mcphost-git-install-')) };
  afterAll(() => rm(work.dir, { recursive: true, force: true }), 180_000);

  it('npm pack git+… then npm install -g of what it packed gives a working mcphost on a fresh prefix', async () => {
    const install = docSection('## Install');
    const lines = install.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim());
    const pack = lines.find((l) => l.startsWith('npm pack git+'))!;
    const installLine = lines[lines.indexOf(pack) + 1];
    expect(pack).toBe('npm pack git+https://<host>/<owner>/mcphost.git');
    expect(installLine).toBe(`npm install -g ./mcphost-${pkg.version}.tgz`);
    expect(lines.filter((l) => l.startsWith('npm install -g git+'))).toEqual([]);

    const clone = path.join(work.dir, 'clone');
    execFileSync('git', ['clone', '--quiet', REPO, clone]);
    const env = { ...isolatedEnv(work.dir), npm_config_cache: process.env.npm_config_cache ?? path.join(process.env.HOME ?? '', '.npm') };
    const sh = (line: string, extra: Record<string, string> = {}) =>
      execa('sh', ['-c', line], { cwd: work.dir, env: { ...env, ...extra }, extendEnv: false, timeout: 600_000, reject: false });
    const packed = await sh(`${pack.replace('git+https://<host>/<owner>/mcphost.git', `git+file://${clone}`)} --prefer-offline`);
    expect(packed.exitCode, packed.stderr.slice(-2000)).toBe(0);
    const prefix = path.join(work.dir, 'prefix');
    const installed = await sh(`${installLine} --prefer-offline --no-audit --no-fund`, { npm_config_prefix: prefix });
    expect(installed.exitCode, installed.stderr.slice(-2000)).toBe(0);

    const bin = path.join(prefix, 'bin', 'mcphost');
    const run = (args: string[]) =>
      execa(bin, args, { cwd: tempDir('mcphost-installed-').dir, env, extendEnv: false, reject: false, timeout: 60_000 });
    expect((await run(['--version'])).stdout).toContain(`mcphost/${pkg.version}`);
    const xml = readFileSync(path.join(SHARED_DATA, 'pob-builds/occvortex-3_26.xml'));
    const code = deflateSync(xml).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
    const decoded = await run(['call', 'pob', 'decode', '--code', code]);
    expect(decoded.exitCode, decoded.stderr).toBe(0);
    expect(decoded.stdout).toContain('className="Witch"');
  }, 900_000);
});
