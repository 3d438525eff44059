// Which settings of a config file's plugin sections decide what runs (programPath(), codePath(),
// runs()), read from each plugin's own schema, so `mcphost trust` can say what approving the file
// lets run and `connect` can tell a file that starts something. Built-in and installed plugins are
// imported for their schema (their code is the user's already); a `plugins.<name>.module` is not:
// importing it would run the very file the approval is about, and it is listed as a module anyway.
import { pathToFileURL } from 'node:url';
import { isPlainObject } from '../config/layers.js';
import { runsKind, schemaAt, type RunsKind } from '../kit/zod-introspect.js';
import { builtinEntry, BUILTIN_ROOT } from './builtins.js';
import { importOutside } from './host-modules.js';
import type { InstalledPackage } from './installed.js';
import { instantiate } from './load.js';

export interface RunSetting {
  /** `plugins.pob.pobPath` */
  path: string;
  kind: RunsKind;
  /** As written in the file. */
  value: unknown;
}

export interface RunSettingsOptions {
  installed?: readonly InstalledPackage[];
  builtinRoot?: string;
}

/** The settings under `plugins` (a file's section, as written) that decide what runs. */
export async function runSettings(plugins: unknown, options: RunSettingsOptions = {}): Promise<RunSetting[]> {
  if (!isPlainObject(plugins)) return [];
  const found = await Promise.all(
    Object.entries(plugins).map(async ([name, section]) => {
      if (!isPlainObject(section) || typeof section.module === 'string') return [];
      const schema = await schemaOf(name, options);
      return schema === undefined ? [] : marked(schema, section, ['plugins', name], []);
    }),
  );
  return found.flat();
}

async function schemaOf(name: string, options: RunSettingsOptions): Promise<unknown> {
  const builtin = builtinEntry(name, options.builtinRoot ?? BUILTIN_ROOT);
  const installed = options.installed?.find((p) => p.backendName === name);
  const entry = builtin ?? installed?.entry;
  if (!entry) return undefined;
  try {
    const exported = builtin ? await import(pathToFileURL(builtin).href) : await importOutside(entry);
    return (await instantiate(name, exported, entry)).configSchema;
  } catch {
    return undefined; // One that does not load is reported by whatever uses it.
  }
}

function marked(schema: unknown, value: Record<string, unknown>, prefix: string[], at: string[]): RunSetting[] {
  const out: RunSetting[] = [];
  for (const [key, child] of Object.entries(value)) {
    const childSchema = schemaAt(schema, [...at, key]);
    if (childSchema === undefined) continue;
    const kind = runsKind(childSchema);
    if (kind) out.push({ path: [...prefix, ...at, key].join('.'), kind, value: child });
    else if (isPlainObject(child)) out.push(...marked(schema, child, prefix, [...at, key]));
  }
  return out;
}

/** `plugins.pob.pobPath: ./PoB (code)`, as `mcphost trust` lists it. */
export function describeRunSetting(s: RunSetting): string {
  const shown = Array.isArray(s.value) ? s.value.map(String).join(' ') : typeof s.value === 'string' ? s.value : JSON.stringify(s.value);
  const what = { program: 'a program', code: 'code it runs', command: 'a command line' }[s.kind];
  return `${s.path}: ${shown} (${what})`;
}
