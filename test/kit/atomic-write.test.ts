// The kit's atomic writer: a file is replaced whole or left as it was, a private file is 0600 in a
// 0700 folder, and staged files appear only when committed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stageFileSync, writeFileAtomic, writeFileAtomicSync } from '../../src/kit/index.js';
import { writeSync } from 'node:fs';
import { tempDir } from '../helpers/tmp.js';

describe('atomic writes', () => {
  it('creates the folder, replaces the file whole, and leaves no temporary file', async () => {
    const t = tempDir();
    const file = path.join(t.dir, 'a', 'b', 'state.json');
    await writeFileAtomic(file, 'one');
    writeFileAtomicSync(file, 'two');
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(readdirSync(path.dirname(file))).toEqual(['state.json']);
  });

  it('writes a private file readable by its owner alone, in a private folder', () => {
    const t = tempDir();
    const file = path.join(t.dir, 'secret', 'trust.json');
    writeFileAtomicSync(file, '{}', { private: true });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it('shows staged files only once committed, and a failed stage leaves the old file and no temporary', () => {
    const t = tempDir();
    const file = t.write('index.json', 'old');
    const staged = stageFileSync(file, (fd) => void writeSync(fd, 'new'));
    expect(readFileSync(file, 'utf8')).toBe('old');
    staged.commit();
    staged.discard();
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(() =>
      stageFileSync(file, () => {
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(readFileSync(file, 'utf8')).toBe('new');
    stageFileSync(file, (fd) => void writeSync(fd, 'dropped')).discard();
    expect(readdirSync(t.dir)).toEqual(['index.json']);
  });
});
