// Every imhex tool through `mcphost call imhex …` (the real CLI, one process per call), against
// the fake ImHex and against a real file, with the exit codes a shell user sees.
import { createServer } from 'node:net';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { startFakeImHex, type FakeImHex } from '../../fixtures/imhex/fake-imhex.js';
import { seededBytes, writeImHexConfig } from './helpers.ts';
import { everyTool, realXxd, type CallTool } from './scenario.ts';

const tmp = tempDir('imhex-call-');
const DATA = seededBytes(32 * 1024, 33);

function cliCall(cwd: string, extra: string[] = []): CallTool {
  return async (tool, args) => {
    const r = await runCli(['call', 'imhex', tool, '--json', '--args', JSON.stringify(args), ...extra], { cwd });
    const result = JSON.parse(r.stdout);
    // A refused argument (-32602, whether zod or the handler found it) is a usage error, 1.
    const code = result._meta?.['mcphost/error']?.code;
    expect(r.exitCode, r.stderr).toBe(
      !result.isError ? 0 : [-32602, 'INVALID_ARGUMENTS'].includes(code) ? 1 : code === 'UNAVAILABLE' ? 4 : 5,
    );
    return {
      isError: result.isError === true,
      structured: result.structuredContent ?? {},
      error: result._meta?.['mcphost/error'],
      text: result.content.map((c: { text: string }) => c.text).join('\n'),
    };
  };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('mcphost call imhex, on a local file', () => {
  const dir = path.join(tmp.dir, 'file');
  mkdirSync(dir);
  const file = path.join(dir, 'data.bin');
  writeFileSync(file, DATA);

  it('runs every tool with --file, checked against the file', async () => {
    await everyTool(cliCall(dir, ['--file', 'data.bin', '--writable', 'true']), {
      persistentSelection: false,
      truth: () => readFileSync(file),
    });
  }, 180_000);

  it('reads 256 bytes at --offset 256, as in `mcphost call imhex read_bytes --offset 256`', async () => {
    writeImHexConfig(dir, { file: 'data.bin' });
    const r = await runCli(['call', 'imhex', 'read_bytes', '--offset', '256'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Read 256 of 256 bytes at 0x100.');
    expect(lines.slice(1).join('')).toBe(readFileSync(file).subarray(256, 512).toString('hex'));
  });

  it('prints the same dump as xxd, with hex offsets accepted on the command line', async () => {
    const r = await runCli(['call', 'imhex', 'hexdump', '--offset', '0x7ff0', '--count', '64', '--file', 'data.bin'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const expected = realXxd(readFileSync(file), 0x7ff0, 64);
    if (expected !== undefined) expect(r.stdout).toBe(expected);
    expect(r.stdout.split('\n')[0]).toMatch(/^00007ff0: /);
  });

  it('refuses write_bytes on a read-only file with exit 5 and -32003, leaving it byte-identical', async () => {
    const sha = () => createHash('sha256').update(readFileSync(file)).digest('hex');
    const before = sha();
    const r = await runCli(['call', 'imhex', 'write_bytes', '--offset', '0', '--data', 'ffff', '--file', 'data.bin', '--json'], {
      cwd: dir,
    });
    expect(r.exitCode).toBe(5);
    expect(JSON.parse(r.stdout)._meta['mcphost/error']).toMatchObject({ code: -32003 });
    expect(sha()).toBe(before);
  });

  it('exits 4 naming the file when it does not exist', async () => {
    const r = await runCli(['call', 'imhex', 'read_bytes', '--offset', '0', '--file', 'missing.bin'], { cwd: dir });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/cannot open .*missing\.bin: ENOENT/);
  });

  it('exits 1 for a value of the wrong type, before anything runs', async () => {
    const r = await runCli(['call', 'imhex', 'read_bytes', '--offset', 'abc', '--file', 'data.bin'], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/--offset expects an integer/);
  });
});

describe('mcphost call imhex, on ImHex (fake)', () => {
  const dir = path.join(tmp.dir, 'imhex');
  mkdirSync(dir);
  let fake: FakeImHex;
  beforeAll(async () => {
    fake = await startFakeImHex({ data: DATA });
  });
  afterAll(() => fake?.close());

  it('runs every tool against ImHex selected by --port', async () => {
    await everyTool(cliCall(dir, ['--port', String(fake.port)]), { persistentSelection: true, truth: () => fake.data });
  }, 180_000);

  it('exits 4 with the "not reachable" message when nothing listens', async () => {
    const port = await freePort();
    const r = await runCli(['call', 'imhex', 'read_bytes', '--offset', '256', '--mode', 'imhex', '--port', String(port)], { cwd: dir });
    expect(r.exitCode).toBe(4);
    expect(r.stderr.replace(/\s*›\s*/g, ' ')).toContain(
      `ImHex not reachable at 127.0.0.1:${port} — is the MCP Integration plugin's server running?`,
    );
  });

  it('without a file or ImHex, says both ways to configure it', async () => {
    const empty = path.join(tmp.dir, 'empty');
    mkdirSync(empty);
    const port = await freePort();
    const r = await runCli(['call', 'imhex', 'get_selection', '--port', String(port)], { cwd: empty });
    expect(r.exitCode).toBe(4);
    const text = r.stderr.replace(/\s*›\s*/g, ' ');
    expect(text).toContain('ImHex not reachable');
    expect(text).toContain('set plugins.imhex.file, or pass --file FILE');
    const fileMode = await runCli(['call', 'imhex', 'get_selection', '--mode', 'file'], { cwd: empty });
    expect(fileMode.exitCode).toBe(4);
    expect(fileMode.stderr.replace(/\s*›\s*/g, ' ')).toMatch(/mode is "file" but no file is set: set plugins\.imhex\.file/);
  });

  it('exits 4 when ImHex never answers, and 5 with ImHex’s code for a JSON-RPC error', async () => {
    writeImHexConfig(dir, { mode: 'imhex', port: fake.port, requestTimeoutMs: 300 });
    fake.silent = true;
    const hung = await runCli(['call', 'imhex', 'get_offset_info', '--offset', '1'], { cwd: dir });
    fake.silent = false;
    expect(hung.exitCode).toBe(4);
    expect(hung.stderr.replace(/\s*›\s*/g, ' ')).toMatch(/did not answer get_offset_info within 300 ms/);
    fake.noProvider = true;
    const none = await runCli(['call', 'imhex', 'get_selection', '--json', '--request-timeout-ms', '20000'], { cwd: dir });
    fake.noProvider = false;
    expect(none.exitCode).toBe(5);
    expect(JSON.parse(none.stdout)._meta['mcphost/error']).toMatchObject({ code: -32001 });
  }, 60_000);
});
