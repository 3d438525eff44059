// `mcphost init`: a starter `.mcprc` in the working directory for the chosen plugins, each section
// built from the plugin's own schema (see config/starter.ts), refusing to overwrite one unasked.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { resolveConfig } from '../config/resolve.js';
import { starterConfig, type StarterPlugin } from '../config/starter.js';
import { writeFileAtomicSync as writeFileAtomic } from '../kit/atomic-write.js';
import { ConfigError } from '../config/errors.js';
import { silentLogger } from '../lib/logger.js';
import { importBackend } from '../loader/load.js';
import type { InstalledPackage } from '../loader/installed.js';
import { UsageError } from './tool-args.js';

export interface InitRequest {
  cwd: string;
  env: NodeJS.ProcessEnv;
  plugins: string[];
  force?: boolean;
  installed?: InstalledPackage[];
  /** Write the text here instead of `<cwd>/.mcprc` (`--dry-run` passes nothing and prints it). */
  write?: boolean;
}

export interface InitResult {
  file: string;
  written: boolean;
  plugins: string[];
  text: string;
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
  // Settings from the environment are read the way every command reads them, with no file at all.
  const resolved = resolveConfig({ found: { raw: { imports: [] } }, env: request.env, cwd: request.cwd });
  const plugins: StarterPlugin[] = [];
  for (const name of request.plugins) {
    const { backend, server } = await importBackend(name, { resolved, installed: request.installed, logger: silentLogger });
    if (server) throw new ConfigError(`${name} is a mounted server, not a plugin: add it under servers`);
    plugins.push({ name, description: backend.description, schema: backend.configSchema, env: backend.env });
  }
  const text = starterConfig(plugins, resolved);
  if (write) writeFileAtomic(file, text);
  return { file, written: write, plugins: request.plugins, text };
}
