// `mcphost call imhex …` through the real binary, with what a shell user sees: the text, hex
// offsets on the command line, exit 0. Every tool is covered in-process in tools.test.ts; a failed
// write through the real binary (exit 5, with its message) in file-safety.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { seededBytes } from './helpers.ts';
import { realXxd } from './scenario.ts';

const tmp = tempDir('imhex-call-');

describe('mcphost call imhex (real binary)', () => {
  const dir = path.join(tmp.dir, 'file');
  mkdirSync(dir);
  const file = path.join(dir, 'data.bin');
  writeFileSync(file, seededBytes(32 * 1024, 33));

  it('prints the same dump as xxd, with hex offsets accepted on the command line', async () => {
    const r = await runCli(['call', 'imhex', 'hexdump', '--offset', '0x7ff0', '--count', '64', '--file', 'data.bin'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^00007ff0: /);
    const expected = realXxd(readFileSync(file), 0x7ff0, 64);
    if (expected !== undefined) expect(r.stdout).toBe(expected);
  });
});
