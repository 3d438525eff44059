// Runs the very bytes of a code config (.mcprc.js, .cjs, .mjs) whose hash decided that it may run.
// Importing the file by its path would run whatever the path holds by then: swapped every 2 ms, a
// never-approved file ran in 28 of 57 runs that had been judged approved (issue 36, item 4). So the
// verified bytes are written to a fresh file of the user's own (exclusive create, mode 0600) beside
// the original, imported from there and removed: relative imports and `require`s inside it resolve
// as they would from the original, and the nearest package.json still says whether a .js is ESM.
// Nobody else can replace that copy between the write and the import: a found config's folder may
// be written by its owner alone (file-safety.ts), and the name is random. cosmiconfig's TypeScript
// loader already works this way (it compiles the content it is given into a file beside the original).
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from './errors.js';
import { realFile } from './trust.js';

/** The default export of the module made of `bytes`, as if imported from `file`. */
export async function importVerified(file: string, bytes: Buffer): Promise<unknown> {
  const real = realFile(file);
  const ext = path.extname(real);
  const copy = path.join(path.dirname(real), `.${path.basename(real)}.${randomUUID()}${ext}`);
  try {
    writeFileSync(copy, bytes, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    throw new ConfigError(
      `Cannot load ${file}: its approved content is run from a private copy beside it, and ${copy} cannot be written ` +
        `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Make the folder writable for you, or copy the config somewhere of your own and pass --config.`,
      [],
      file,
    );
  }
  try {
    const exported = (await import(pathToFileURL(copy).href)) as { default?: unknown };
    return exported.default;
  } finally {
    rmSync(copy, { force: true });
  }
}
