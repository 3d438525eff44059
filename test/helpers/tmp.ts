import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** A temporary folder removed after the test file; `write` adds files to it. */
export function tempDir(prefix = 'mcphost-test-') {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write(name: string, content: string) {
      const file = path.join(dir, name);
      writeFileSync(file, content);
      return file;
    },
  };
}
