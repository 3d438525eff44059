// `mcphost init`: a starter `.mcprc` in the working directory for the chosen plugins, each section
// built from the plugin's own schema (see config/starter.ts), refusing to overwrite one unasked.
// The file is the user's own (written on their command), so it is approved as written; then the
// doctor's checks run on it, so init says what each plugin still needs instead of leaving a
// `doctor` that fails. With no plugins named, every built-in is tried and only those that work here
// are kept (pob always: its XML tools need nothing external).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { resolveConfig } from '../config/resolve.js';
import { starterConfig, type StarterPlugin } from '../config/starter.js';
import { writeFileAtomicSync as writeFileAtomic } from '../kit/atomic-write.js';
import { ConfigError } from '../config/errors.js';
import { silentLogger } from '../kit/silent-logger.js';
import { importBackend } from '../loader/load.js';
import type { InstalledPackage } from '../loader/installed.js';
import { UsageError } from './usage-error.js';
import { approveFile } from './trust.js';
import { doctorReport } from './inspect.js';
import { builtinNames } from '../loader/builtins.js';

export interface InitRequest {
  cwd: string;
  env: NodeJS.ProcessEnv;
  plugins: string[];
  force?: boolean;
  installed?: InstalledPackage[];
  /** Write the text here instead of `<cwd>/.mcprc` (`--dry-run` passes nothing and prints it). */
  write?: boolean;
  /** No plugins were named: try every built-in and keep those that work here. */
  detect?: boolean;
}

interface InitCheck {
  plugin: string;
  ok: boolean;
  /** What the doctor says: ready, or what to set or start. */
  message: string;
}

export interface InitResult {
  file: string;
  written: boolean;
  plugins: string[];
  text: string;
  /** The doctor's checks of the written file (none for a dry run). */
  checks: InitCheck[];
  /** Built-ins tried with no plugins named and left out, with why. */
  leftOut: InitCheck[];
}

export async function initConfig(request: InitRequest): Promise<InitResult> {
  const file = path.join(request.cwd, '.mcprc');
  const write = request.write ?? true;
  if (write && !request.force) {
    const existing = ['.mcprc', '.mcprc.json', '.mcprc.yaml', '.mcprc.yml', '.mcprc.js', 'mcphost.config.js']
      .map((f) => path.join(request.cwd, f))
      .find((f) => existsSync(f));
    if (existing) throw new UsageError(`${existing} exists already; pass --force to replace it with a starter .mcprc`);
  }
  const names = request.detect ? [...new Set(['pob', ...builtinNames()])] : request.plugins;
  const text = await starterText(names, request);
  if (!write) return { file, written: false, plugins: names, text, checks: [], leftOut: [] };
  writeFileAtomic(file, text);
  approveFile(file, request.env);
  let checks = await check(file, request);
  let leftOut: InitCheck[] = [];
  if (request.detect) {
    leftOut = checks.filter((c) => !c.ok && c.plugin !== 'pob');
    if (leftOut.length) {
      const kept = names.filter((n) => !leftOut.some((c) => c.plugin === n));
      const keptText = await starterText(kept, request);
      writeFileAtomic(file, keptText);
      approveFile(file, request.env);
      checks = checks.filter((c) => kept.includes(c.plugin));
      return { file, written: true, plugins: kept, text: keptText, checks, leftOut };
    }
  }
  return { file, written: true, plugins: names, text, checks, leftOut };
}

async function starterText(names: string[], request: InitRequest): Promise<string> {
  // Settings from the environment are read the way every command reads them, with no file at all.
  const resolved = resolveConfig({ found: { raw: { imports: [] } }, env: request.env, cwd: request.cwd });
  const plugins: StarterPlugin[] = [];
  for (const name of names) {
    const { backend, server } = await importBackend(name, { resolved, installed: request.installed, logger: silentLogger });
    if (server) throw new ConfigError(`${name} is a mounted server, not a plugin: add it under servers`);
    plugins.push({ name, description: backend.description, schema: backend.configSchema, env: backend.env });
  }
  return starterConfig(plugins, resolved);
}

async function check(file: string, request: InitRequest): Promise<InitCheck[]> {
  const report = await doctorReport({
    cwd: request.cwd,
    env: request.env,
    configFile: file,
    installed: request.installed,
    writeLog: () => undefined,
  });
  return report.plugins.map((p) => ({ plugin: p.name, ok: p.ok, message: p.message }));
}
