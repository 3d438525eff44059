// Every file a tool argument or a config names is refused by its type, at once, when it is a FIFO,
// a socket or a device: opening a FIFO for reading waits for a writer that never comes, and the
// thread stuck in that open() used to keep the host from exiting at all. Each case runs under a
// short timeout; a regression hangs it instead of failing slowly.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findConfig } from '../../src/config/find.js';
import { openRegularFile, readRegularFile, readRegularFileSync } from '../../src/kit/regular-file.js';
import { callInProcess } from '../helpers/in-process.js';
import { tempDir } from '../helpers/tmp.js';

const QUICK = 5_000;

function fifo(dir: string, name: string): string {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

describe('openRegularFile and readRegularFile', () => {
  const tmp = tempDir();
  const pipe = fifo(tmp.dir, 'pipe');
  const regular = tmp.write('plain.txt', 'hello');

  it('refuse a FIFO, a directory and a character device by type, naming what it is', { timeout: QUICK }, async () => {
    await expect(openRegularFile(pipe)).rejects.toMatchObject({ code: 'NOT_A_REGULAR_FILE', kind: 'FIFO (named pipe)' });
    await expect(readRegularFile(pipe, 'utf8')).rejects.toThrow(`${pipe} is a FIFO (named pipe), not a regular file`);
    expect(() => readRegularFileSync(pipe)).toThrow(/FIFO \(named pipe\), not a regular file/);
    await expect(readRegularFile(tmp.dir)).rejects.toMatchObject({ kind: 'directory' });
    await expect(readRegularFile('/dev/zero')).rejects.toMatchObject({ kind: 'character device' });
    await expect(openRegularFile(pipe, 'r+')).rejects.toMatchObject({ kind: 'FIFO (named pipe)' });
  });

  it('refuse a socket', { timeout: QUICK }, async () => {
    const sock = path.join(tmp.dir, 'sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      await expect(readRegularFile(sock)).rejects.toMatchObject({ kind: 'socket' });
    } finally {
      server.close();
    }
  });

  it('read a regular file, also through a symlink', async () => {
    const link = path.join(tmp.dir, 'link.txt');
    symlinkSync(regular, link);
    expect(await readRegularFile(link, 'utf8')).toBe('hello');
    expect(readRegularFileSync(regular, 'utf8')).toBe('hello');
  });
});

describe('a FIFO where a tool or a config names a file', () => {
  const tmp = tempDir();
  const pipe = fifo(tmp.dir, 'trap.xml');

  it('imhex: `call imhex read_bytes --file <fifo>` fails at once saying what the file is', { timeout: QUICK }, async () => {
    const r = await callInProcess({
      cwd: tmp.dir,
      plugin: 'imhex',
      tool: 'read_bytes',
      args: { offset: 0, count: 4 },
      flags: [{ name: 'file', value: 'trap.xml', text: '--file' }],
    });
    expect(r.error?.message).toBe(
      `cannot open ${pipe}: it is a FIFO (named pipe), not a regular file — set plugins.imhex.file (or --file) to a regular file`,
    );
  });

  it('pob: a build argument naming a FIFO is refused as not a regular file', { timeout: QUICK }, async () => {
    const r = await callInProcess({ cwd: tmp.dir, plugin: 'pob', tool: 'analyze_build', args: { build: pipe } });
    expect(r.error?.message).toMatch(new RegExp(`build: ${pipe} is a FIFO \\(named pipe\\), not a regular file`));
  });

  it('exile: a snapshot that is a FIFO is refused', { timeout: QUICK * 2 }, async () => {
    const r = await callInProcess({
      cwd: tmp.dir,
      plugin: 'exile',
      tool: 'explore',
      args: {},
      flags: [{ name: 'snapshot', value: 'trap.xml', text: '--snapshot' }],
    });
    expect(r.error?.message).toMatch(/is a FIFO \(named pipe\), not a regular file: set plugins\.exile\.snapshot/);
  });

  it('godot: a FIFO among the class files is skipped with a warning, the rest are indexed', { timeout: QUICK * 4 }, async () => {
    const doc = path.join(tmp.dir, 'doc');
    mkdirSync(path.join(doc, 'classes'), { recursive: true });
    writeFileSync(
      path.join(doc, 'classes', 'Timer.xml'),
      '<?xml version="1.0"?><class name="Timer" inherits="Node"><brief_description>Counts down.</brief_description><description/></class>',
    );
    fifo(path.join(doc, 'classes'), 'Trap.xml');
    symlinkSync(path.join(doc, 'classes', 'Trap.xml'), path.join(doc, 'classes', 'Linked.xml'));
    const logs: string[] = [];
    const r = await callInProcess({
      cwd: tmp.dir,
      plugin: 'godot',
      tool: 'get_class',
      args: { name: 'Timer' },
      flags: [
        { name: 'docDir', value: doc, text: '--doc-dir' },
        { name: 'indexPath', value: path.join(tmp.dir, 'index'), text: '--index-path' },
      ],
      writeLog: (line) => logs.push(line),
    });
    expect(r.error).toBeUndefined();
    expect(JSON.stringify(r.result)).toContain('Counts down.');
    expect(logs.join('\n')).toMatch(/skipping .*Linked\.xml: it is not a regular file/);
  });

  it('config: a FIFO named .mcprc.json in the folder searched is a config error, not a hang', { timeout: QUICK }, async () => {
    const dir = path.join(tmp.dir, 'project');
    mkdirSync(dir);
    fifo(dir, '.mcprc.json');
    await expect(findConfig({ cwd: dir, env: { HOME: dir } })).rejects.toThrow(
      /\.mcprc\.json is a FIFO \(named pipe\), not a regular file/,
    );
  });

  it("config: a FIFO named .mcp.json (Claude Code's project file) is a config error, not a hang", { timeout: QUICK }, async () => {
    const dir = path.join(tmp.dir, 'client');
    mkdirSync(dir);
    fifo(dir, '.mcp.json');
    await expect(findConfig({ cwd: dir, env: { HOME: dir } })).rejects.toThrow(/\.mcp\.json is a FIFO/);
  });
});
