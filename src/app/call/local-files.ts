// Files named in the arguments of a `call --url`: the server reads paths on its own disk (and a
// network client only inside its file roots), so a file on this machine is sent as its content.
// `--build-xml @MyBuild.xml` reads MyBuild.xml here (`@@` keeps a literal leading `@`), the
// convention of curl and mcporter; a plain path the server cannot read gets a hint saying so.
import { statSync } from 'node:fs';
import path from 'node:path';
import { readRegularFileSync } from '../../kit/regular-file.js';
import { UsageError } from '../usage-error.js';

/** The most a file argument may hold: a 2025-era server takes 4 MiB request bodies by default (http.maxBodyBytes). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

const flagOf = (key: string) => `--${key.replace(/_/g, '-')}`;

/** `args` with every top-level `@path` string replaced by the text of that file (relative to `cwd`). */
export function readAtFiles(args: Record<string, unknown>, cwd: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string' || !value.startsWith('@')) out[key] = value;
    else if (value.startsWith('@@')) out[key] = value.slice(1);
    else out[key] = readArgFile(key, value.slice(1), cwd);
  }
  return out;
}

function readArgFile(key: string, given: string, cwd: string): string {
  const file = path.resolve(cwd, given);
  const size = statSync(file, { throwIfNoEntry: false })?.size;
  if (size === undefined) throw new UsageError(`${flagOf(key)} @${given}: no such file (${file}); to send a literal @, write @@`);
  if (size > MAX_FILE_BYTES)
    throw new UsageError(`${flagOf(key)} @${given}: the file is ${size} bytes, more than ${MAX_FILE_BYTES} can be sent`);
  try {
    return readRegularFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${flagOf(key)} @${given}: cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * For a refusal of a path (not found, not allowed): the arguments that name a file on this machine,
 * and how to send them instead; undefined when none does.
 */
export function localFileHint(args: Record<string, unknown>, cwd: string): string | undefined {
  const local = Object.entries(args).filter(
    (entry): entry is [string, string] =>
      typeof entry[1] === 'string' &&
      entry[1].length < 4096 &&
      !entry[1].includes('\n') &&
      statSync(path.resolve(cwd, entry[1]), { throwIfNoEntry: false })?.isFile() === true,
  );
  if (local.length === 0) return undefined;
  const sends = local.map(([key, value]) => `${flagOf(key)} @${value}`).join(' ');
  return `${local.map(([, value]) => value).join(', ')} is a file on this machine, but the server reads paths on its own disk: send the content with ${sends}`;
}
