// Each entry of `plugins`, `servers` and `mcpServers` stands alone. One that cannot be used — a
// `${VAR}` that is not set, a value its schema refuses — is set aside with why, instead of making
// the whole file invalid: it is reported where it is used (`serve` warns and serves the rest;
// `tools`, `doctor` and `servers` list it; a command that names it fails with exit 3), and every
// other entry and command keeps working, as a broken server in Claude Code's or Cursor's list
// leaves the others running. Host keys (`http`, `timeouts`, …) still fail the file as a whole.
import type * as z from 'zod';
import { issueLines, type IssueLine } from '../kit/zod-issues.js';
import { ConfigError } from './errors.js';
import { interpolate, type ReferenceContext } from './interpolate.js';
import { isPlainObject } from './layers.js';
import { pluginSectionSchema, upstreamServerSchema } from './schema.js';

const ENTRY_SECTIONS = ['plugins', 'servers', 'mcpServers'] as const;
type EntrySection = (typeof ENTRY_SECTIONS)[number];

const SCHEMAS: Record<EntrySection, z.ZodType> = {
  plugins: pluginSectionSchema,
  servers: upstreamServerSchema,
  mcpServers: upstreamServerSchema,
};

export interface UnusableEntry {
  /** The plugin or server name (what `--plugins` and `call` take). */
  name: string;
  /** Its key in the file: `servers.tracker`. */
  key: string;
  /** Why, naming the key path and (for `${VAR}`) the variable; exit code 3 when used. */
  error: ConfigError;
  /** `enabled: false` in the file: not served by default, so not reported unless named. */
  disabled: boolean;
  /** The entry as written (before interpolation). */
  entry: unknown;
}

export interface SeparatedEntries {
  /** The usable entries, interpolated, per section (only sections the file has as objects). */
  sections: Partial<Record<EntrySection, Record<string, unknown>>>;
  unusable: Map<string, UnusableEntry>;
}

/**
 * Takes the three entry sections out of `raw` (so the rest can be interpolated and validated as
 * before), and answers each entry interpolated and checked against its own schema.
 */
export function separateEntries(
  raw: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  file: string | undefined,
  references?: ReferenceContext,
): SeparatedEntries {
  const out: SeparatedEntries = { sections: {}, unusable: new Map() };
  for (const section of ENTRY_SECTIONS) {
    const entries = raw[section];
    // A section that is not an object is the file's problem: the host schema reports it.
    if (!isPlainObject(entries)) continue;
    delete raw[section];
    const usable: Record<string, unknown> = {};
    for (const [name, entry] of Object.entries(entries)) {
      const key = `${section}.${name}`;
      const { value, lines } = check(section, name, entry, env, file, references);
      if (lines.length === 0) usable[name] = value;
      else if (!out.unusable.has(name)) {
        const where = file ? ` in ${file}` : '';
        const error = new ConfigError(
          `${key}${where} cannot be used (everything else still works); fix it, or set ${key}.enabled: false`,
          lines,
          file,
        );
        out.unusable.set(name, { name, key, error, disabled: isPlainObject(entry) && entry.enabled === false, entry });
      }
    }
    out.sections[section] = usable;
  }
  return out;
}

/** One entry interpolated, and what is wrong with it: a reference it cannot expand, else what its schema refuses. */
function check(
  section: EntrySection,
  name: string,
  entry: unknown,
  env: NodeJS.ProcessEnv,
  file: string | undefined,
  references: ReferenceContext | undefined,
): { value?: unknown; lines: IssueLine[] } {
  let value: unknown;
  try {
    value = interpolate(entry, env, file, [section, name], references);
  } catch (error) {
    if (error instanceof ConfigError) return { lines: error.lines };
    throw error;
  }
  const schema = SCHEMAS[section];
  const parsed = schema.safeParse(value, { reportInput: true });
  const lines = parsed.success ? [] : issueLines(parsed.error, value, [section, name], schema);
  if (section !== 'plugins') lines.push(...literalSecrets(entry, [section, name]));
  return { value, lines };
}

/** A client secret written into the file itself (a file gets shared, committed, printed) instead of a `${VAR}` reference. */
function literalSecrets(entry: unknown, path: string[]): IssueLine[] {
  const oauth = isPlainObject(entry) ? entry.oauth : undefined;
  const secret = isPlainObject(oauth) ? oauth.clientSecret : undefined;
  if (typeof secret !== 'string' || secret.includes('${')) return [];
  const variable = `${path[1].toUpperCase().replace(/[^A-Z0-9]/g, '_')}_CLIENT_SECRET`;
  return [
    {
      path: [...path, 'oauth', 'clientSecret'].join('.'),
      message: `a secret written into the file: give it as a reference instead, e.g. clientSecret: \${${variable}} with ${variable} set in the environment`,
    },
  ];
}
