// `mcphost call` through the real binary: a call and its exit codes, a chain of stateful calls
// through a running `mcphost serve` (--url), and progress on a real pseudo-terminal (util-linux
// `script`) versus a pipe. Tool-level behaviour runs in-process in test/app/one-shot.test.ts.
import { execFileSync } from 'node:child_process';
import { openSync, closeSync, ftruncateSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, trustCli } from '../helpers/cli.js';
import { startHttp, type HttpServer } from '../helpers/mcp.js';
import { BIN, KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const LAB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli/fixtures/lab/index.js');
const t = tempDir();
t.write('.mcprc.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\n    greeting: hi\n  lab:\n    module: ${LAB}\n`);
const env = isolatedEnv(t.dir);
// The file imports a module: approved first, as its user would.
await trustCli(t.dir, env);
const call = (args: string[], extraEnv: Record<string, string> = {}) =>
  runCli(['call', ...args], { cwd: t.dir, env: { ...env, ...extraEnv } });

describe('mcphost call', () => {
  it('prints the tool text, by plugin and tool or by published name', async () => {
    const [local, published] = await Promise.all([
      call(['kitchen', 'echo', '--message', 'world', '--times', '2']),
      call(['kitchen_echo', '--message', 'x']),
    ]);
    expect(local).toMatchObject({ exitCode: 0, stdout: 'hi world\nhi world', stderr: '' });
    expect(published).toMatchObject({ exitCode: 0, stdout: 'hi x' });
  });

  it('exits with the code of the table: 1 usage, 2 plugin, 3 config, 4 unreachable, 5 tool error', async () => {
    const runs = await Promise.all([
      call(['lab', 'read_at', '--offset', '-1']),
      call(['nosuch', 'x']),
      call(['kitchen', 'echo', '--message', 'x'], { KITCHEN_LEVEL: 'high' }),
      call(['kitchen', 'offline', '--json']),
      call(['kitchen', 'boom']),
    ]);
    expect(runs.map((r) => r.exitCode)).toEqual([1, 2, 3, 4, 5]);
    expect(runs[0].stderr).toBe('Error: offset: must not be negative');
    expect(JSON.parse(runs[3].stdout).error).toEqual({
      message: 'kitchen oven not reachable at 127.0.0.1:1 — is it switched on?',
      exit: 4,
      code: 'UNAVAILABLE',
    });
  });
});

describe('mcphost call --url', () => {
  let server: HttpServer | undefined;
  afterAll(() => server?.stop());

  it('chains stateful tools through a running mcphost serve', async () => {
    server = await startHttp(['--plugins', 'lab'], { cwd: t.dir, env });
    const url = server.url;
    // Each call is its own process; the value lives in the server's lab backend between them.
    expect((await call(['--url', url, 'lab_remember', '--value', 'build 7'])).stdout).toBe('remembered build 7');
    const recalled = await call(['--url', url, 'lab', 'recall']);
    expect(recalled).toMatchObject({ exitCode: 0, stdout: 'build 7' });
  });
});

const haveScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('progress of a long search', () => {
  // imhex reports progress on files of 64 MiB and more, about every 1 %. A sparse file costs no disk.
  const file = path.join(t.dir, 'big.bin');
  const fd = openSync(file, 'w');
  ftruncateSync(fd, 128 * 1024 * 1024);
  writeSync(fd, Buffer.from('JxO'), 0, 3, 100_000_000);
  closeSync(fd);
  const search = ['call', 'imhex', 'search', '--pattern', '4A ?? 4F', '--file', file];

  // util-linux `script` gives the call a real pseudo-terminal; without it this case is skipped.
  it.skipIf(!haveScript)('is one line redrawn in place on a terminal, cleared before the result', async () => {
    const command = [process.execPath, BIN, ...search].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
    const r = await execa('script', ['-qfec', command, '/dev/null'], { cwd: t.dir, env, extendEnv: false, reject: false });
    expect(r.exitCode).toBe(0);
    // Everything the terminal got: progress frames joined by cursor moves, no newline until the result.
    const [progress, ...rest] = r.stdout.split('\n');
    expect(rest.join('')).toBe('');
    expect(progress).toMatch(/\[[=-]{20}\] +\d+% searched \d+ of \d+ bytes/);
    expect(progress).toMatch(/1 match for 4a \?\? 4f: 0x5F5E100\r?$/);
  });

  it('prints nothing when stderr is a pipe', async () => {
    const r = await runCli(search, { cwd: t.dir, env });
    expect(r).toMatchObject({ exitCode: 0, stderr: '', stdout: '1 match for 4a ?? 4f: 0x5F5E100' });
  });
});
