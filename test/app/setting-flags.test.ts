// Issue 24 item 2: a boolean plugin setting given to one `mcphost call` is a switch, as gh, npm and
// docker take boolean flags: `--writable`, `--no-writable`, `--writable=false`, `--writable true`.
// The imhex plugin's `writable` and `allowGrow` settings, on a real file, in-process.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSettingFlags } from '../../src/app/call/arguments.js';
import { UsageError } from '../../src/app/usage-error.js';
import { splitArgv } from '../../src/cli/call-argv.js';
import { isolatedEnv } from '../helpers/cli.js';
import { callInProcess } from '../helpers/in-process.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir('setting-flags-');
const file = path.join(t.dir, 'data.bin');

/** `mcphost call imhex <argv…>` in-process, as the command splits its argv. */
function call(argv: string[]) {
  const split = splitArgv(['imhex', ...argv]);
  return callInProcess({ cwd: t.dir, env: isolatedEnv(t.dir), plugin: 'imhex', tool: split.positionals[1], flags: split.flags });
}

describe('boolean plugin settings as switches on `mcphost call`', () => {
  it('--writable alone lets write_bytes write; without it (or with --no-writable) the file stays as it was', async () => {
    writeFileSync(file, Buffer.alloc(16));
    const refused = await call(['write_bytes', '--offset', '0', '--data', 'ab', '--file', file]);
    expect(refused.error?.message).toMatch(/writable/);
    const negated = await call(['write_bytes', '--offset', '0', '--data', 'ab', '--file', file, '--no-writable']);
    expect(negated.error?.message).toMatch(/writable/);
    expect(readFileSync(file)[0]).toBe(0);

    const written = await call(['write_bytes', '--writable', '--offset', '0', '--data', 'ab', '--file', file]);
    expect(written.error).toBeUndefined();
    expect(readFileSync(file)[0]).toBe(0xab);
    // The value forms keep working.
    for (const form of [['--writable', 'true'], ['--writable=true']]) {
      const again = await call(['write_bytes', '--offset', '1', '--data', 'cd', '--file', file, ...form]);
      expect(again.error).toBeUndefined();
    }
    expect(readFileSync(file)[1]).toBe(0xcd);
  });

  it('--allow-grow (kebab-case of allowGrow) lets a write extend the file', async () => {
    writeFileSync(file, Buffer.alloc(4));
    const past = ['write_bytes', '--offset', '4', '--data', '0102', '--file', file, '--writable'];
    expect((await call(past)).error?.message).toMatch(/allowGrow|extend|end of the file|past/i);
    expect(readFileSync(file).length).toBe(4);
    expect((await call([...past, '--allow-grow'])).error).toBeUndefined();
    expect([...readFileSync(file)]).toEqual([0, 0, 0, 0, 1, 2]);
  });

  it('refuses a value after --no-x, and a non-boolean setting without a value, naming the flag', async () => {
    expect(readSettingFlags('imhex', undefined, splitArgv(['--x']).flags).remaining).toHaveLength(1);
    await expect(call(['read_bytes', '--offset', '0', '--count', '1', '--no-writable=true', '--file', file])).rejects.toThrow(
      '--no-writable takes no value',
    );
    await expect(call(['read_bytes', '--offset', '0', '--count', '1', '--file'])).rejects.toThrow(
      new UsageError('--file needs a value (the imhex setting file)'),
    );
  });
});
