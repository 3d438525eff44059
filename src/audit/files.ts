// Where an audit trail lives: `audit.file` (`/var/log/mcphost/audit.jsonl`) is written as numbered
// files beside it, `audit.1.jsonl`, `audit.2.jsonl`, … (pino-roll's names: the highest is the one
// being written; `audit` with no extension is `audit.1.log`), older ones removed past `audit.keep`.
import { readdirSync } from 'node:fs';
import path from 'node:path';

function trailParts(file: string): { base: string; extension: string } {
  const extension = path.extname(file);
  // A name without one is written with pino-roll's own, .log.
  return extension ? { base: file.slice(0, -extension.length), extension } : { base: file, extension: '.log' };
}

/** The trail's files, oldest first. */
export function trailFiles(file: string): string[] {
  const { base, extension } = trailParts(file);
  const dir = path.dirname(base);
  const stem = path.basename(base);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const numbered = names
    .map((name) => {
      if (!name.startsWith(`${stem}.`) || !name.endsWith(extension)) return undefined;
      const middle = name.slice(stem.length + 1, name.length - extension.length);
      return /^\d+$/.test(middle) ? { name, n: Number(middle) } : undefined;
    })
    .filter((x): x is { name: string; n: number } => x !== undefined);
  return numbered.sort((a, b) => a.n - b.n).map((x) => path.join(dir, x.name));
}
