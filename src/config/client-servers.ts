// The servers of MCP clients' project files (.mcp.json, .cursor/mcp.json) joined to `servers`, below
// everything in .mcprc: callable by name (`mcphost call <name> …`, `--plugins <name>`) but never
// served unasked, since the client that wrote the file serves them already. An entry that does
// not validate, or needs an unset variable, is kept aside with its reason instead of failing every
// command run in that project; asking for it by name reports the reason.
import path from 'node:path';
import { formatIssueLines, issueLines } from '../kit/zod-issues.js';
import type { ClientServers } from './clients.js';
import { ConfigError } from './errors.js';
import { interpolate } from './interpolate.js';
import { fillDefaultSources, recordLeaves, type Sources } from './layers.js';
import { upstreamServerSchema, type HostConfig } from './schema.js';
import type { TrustStatus } from './trust.js';

export interface ImportedServer {
  client: string;
  file: string;
  /** Whether the file's servers may run (`mcphost trust <file>`). */
  trust?: TrustStatus;
  /** Why it cannot be used (then it is not in `servers`). */
  error?: string;
}

export function importClientServers(
  clients: readonly ClientServers[],
  config: HostConfig,
  sources: Sources,
  env: NodeJS.ProcessEnv,
): Map<string, ImportedServer> {
  const imported = new Map<string, ImportedServer>();
  for (const found of clients) {
    const where = { client: found.client, file: found.file, trust: found.trust };
    for (const { name, reason } of found.skipped) {
      if (!(name in config.servers) && !imported.has(name)) imported.set(name, { ...where, error: reason });
    }
    for (const [name, raw] of Object.entries(found.servers)) {
      if (name in config.servers || imported.has(name)) continue;
      const prefix = ['mcpServers', name];
      let value: unknown;
      try {
        value = interpolate(raw, env, found.file, prefix);
      } catch (error) {
        imported.set(name, { ...where, error: error instanceof ConfigError ? error.message : String(error) });
        continue;
      }
      const parsed = upstreamServerSchema.safeParse(value, { reportInput: true });
      if (!parsed.success) {
        imported.set(name, { ...where, error: formatIssueLines(issueLines(parsed.error, value, prefix, upstreamServerSchema)) });
        continue;
      }
      const server = parsed.data;
      // The client starts a project's servers in the project folder; so does mcphost.
      if ('command' in server) server.cwd = path.resolve(found.projectDir, server.cwd ?? '.');
      config.servers[name] = server;
      recordLeaves(sources, server, ['servers', name], { kind: 'file', file: found.file });
      fillDefaultSources(sources, server, ['servers', name]);
      imported.set(name, where);
    }
  }
  return imported;
}
