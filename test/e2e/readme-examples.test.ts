// Issue 24 item 3: every README block fenced as ```sh example is run as written, through bash and
// the real binary (`mcphost` on PATH), in README order in one shell session as a user pastes them,
// so an `export` carries over to later blocks. What the README leaves to the reader is put where it
// points: ~/src/godot/doc is the Godot class XML of ../shared/data, MyBuild.xml/old.xml/new.xml are
// real PoB builds from ../shared/data, firmware.bin a file holding the bytes the search looks for.
// The only text replaced is the README's `eN...` placeholder for a share code (a real one, made here).
import { chmodSync, copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { DOC_FILES, readDoc } from '../helpers/docs.js';
import { BIN, SHARED_DATA } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

/** The fenced ```sh example blocks of the README and the docs it links to, in reading order, with where each starts. */
export function exampleBlocks(): Array<{ at: string; body: string }> {
  const out: Array<{ at: string; body: string }> = [];
  for (const file of DOC_FILES) {
    const text = readDoc(file);
    for (const m of text.matchAll(/^```sh example\n([\s\S]*?)^```$/gm))
      out.push({ at: `${file}:${text.slice(0, m.index).split('\n').length}`, body: m[1] });
  }
  return out;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function prepare(home: string): string {
  const bin = path.join(home, 'bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'mcphost'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(path.join(bin, 'mcphost'), 0o755);
  mkdirSync(path.join(home, 'src/godot'), { recursive: true });
  symlinkSync(path.join(SHARED_DATA, 'godot-docs/doc'), path.join(home, 'src/godot/doc'));
  const work = path.join(home, 'work');
  mkdirSync(work);
  const builds = path.join(SHARED_DATA, 'pob-builds');
  copyFileSync(path.join(builds, 'occvortex-3_26.xml'), path.join(work, 'MyBuild.xml'));
  copyFileSync(path.join(builds, 'occvortex-3_13.xml'), path.join(work, 'old.xml'));
  copyFileSync(path.join(builds, 'occvortex-3_26.xml'), path.join(work, 'new.xml'));
  const firmware = Buffer.alloc(4096, 0x20);
  Buffer.from([0x4a, 0x11, 0x6f]).copy(firmware, 300);
  writeFileSync(path.join(work, 'firmware.bin'), firmware);
  return work;
}

describe('README examples', () => {
  const blocks = exampleBlocks();

  it('the README marks its runnable blocks', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    expect(blocks.map((b) => b.body).join('')).toContain('mcphost call godot');
    // The quick starts in the README, the one-shot calls in the reference: both are run.
    expect(new Set(blocks.map((b) => b.at.split(':')[0]))).toEqual(new Set(['README.md', 'docs/reference.md']));
  });

  it('every command of a ```sh example block runs as written and exits 0', async () => {
    const home = tempDir('mcphost-readme-');
    const work = prepare(home.dir);
    const code = deflateSync(readFileSync(path.join(work, 'MyBuild.xml')))
      .toString('base64')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
    // One session; each command is echoed first, so a failure names its line.
    const script = [
      'set -euo pipefail',
      ...blocks.flatMap((b) => [
        `echo "== ${b.at}" >&2`,
        ...b.body
          .split('\n')
          .filter((l) => l.trim() && !l.trim().startsWith('#'))
          .map((l) => `echo ${quote(`$ ${l}`)} >&2; ${l.replaceAll('eN...', code)} >/dev/null`),
      ]),
    ].join('\n');
    // stdin: a `serve` on stdio ends when its client (here nobody) closes stdin.
    const env = { ...isolatedEnv(home.dir), PATH: `${path.join(home.dir, 'bin')}:${process.env.PATH}` };
    const result = await execa('bash', ['-c', script], {
      cwd: work,
      env,
      extendEnv: false,
      reject: false,
      input: '',
      timeout: 240_000,
    });
    expect(result.stderr.split('\n').filter((l) => l.startsWith('$ ')).length).toBeGreaterThanOrEqual(10);
    expect({ exitCode: result.exitCode, stderr: result.stderr.slice(-2000) }).toEqual({ exitCode: 0, stderr: expect.any(String) });
  }, 300_000);
});
