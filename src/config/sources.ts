// What the sources of values are used for besides `mcphost config`: resolving relative paths
// (against the config file's folder, or the working directory for env and flags) and annotating
// errors with where a bad value came from.
import path from 'node:path';
import type { IssueLine } from '../kit/zod-issues.js';
import { ConfigError } from './errors.js';
import { describeSource, sourceOf, type Source } from './layers.js';

type SourceLookup = ReadonlyMap<string, Source>;

/** Values from the file (and defaults) are relative to the config file's folder; env and flags to the cwd. */
export function resolveFrom(sources: SourceLookup, key: string, value: string, baseDir: string, cwd: string): string {
  const source = sourceOf(sources, key);
  return path.resolve(source?.kind === 'env' || source?.kind === 'flag' ? cwd : baseDir, value);
}

export function configError(file: string | undefined, lines: IssueLine[], sources: SourceLookup): ConfigError {
  const annotated = lines.map((line) => {
    const source = sourceOf(sources, line.path);
    return source && source.kind !== 'file' ? { ...line, message: `${line.message} [${describeSource(source)}]` } : line;
  });
  return new ConfigError(file ? `Invalid config in ${file}` : 'Invalid config', annotated, file);
}
