// The record of the tools the user approved on each mounted server ("pinned tools"): for every
// server, by a key of its name and what starts it, each tool's definition — name, description,
// input and output schemas, annotations — and the SHA-256 of it. A JSON file in the user's own
// config folder beside the approvals of `mcphost trust`, written atomically and readable by the
// user alone; checked like them (another user must not be able to write what decides what is served).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { readRegularFileSync } from '../kit/regular-file.js';
import { userConfigDir } from './cache-dir.js';
import { ConfigError } from './errors.js';
import { checkOwnership } from './file-safety.js';
import { sha256 } from './trust.js';
import { writeFileAtomicSync as writeFileAtomic } from '../kit/atomic-write.js';

export interface PinnedTool {
  sha256: string;
  /** The definition as approved (what a change is compared with). */
  definition: ToolDefinition;
  pinnedAt: string;
}

export interface PinnedServer {
  /** Its name in the config. */
  name: string;
  /** Its command line or URL, for people reading the record. */
  target: string;
  tools: Record<string, PinnedTool>;
}

/**
 * The fields of a tool a pin covers: what the model reads and what decides how it is called.
 * `title` and `_meta` are left out: the issue's list is name, description, schemas and annotations;
 * `_meta` carries extension data (an MCP App's `ui` view reference among it) whose content — the
 * view's HTML, a resource — can change without the tool changing, so pinning the pointer alone
 * would promise more than it holds, and servers may vary it per response.
 */
export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

export function pinsFile(env: NodeJS.ProcessEnv): string {
  return path.join(userConfigDir(env), 'pinned-tools.json');
}

/** The fields pinned, from a tool as a server lists it. */
export function toolDefinition(tool: {
  name: string;
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}): ToolDefinition {
  const def: ToolDefinition = { name: tool.name };
  if (tool.description !== undefined) def.description = String(tool.description);
  if (tool.inputSchema !== undefined) def.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) def.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) def.annotations = tool.annotations;
  return def;
}

/** JSON with object keys sorted at every depth, so one definition always hashes alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function definitionHash(def: ToolDefinition): string {
  return sha256(canonicalJson(def));
}

/** The key a server's pins are kept under: its name and what starts it (a new command asks again). */
export function serverPinKey(name: string, target: unknown): string {
  return sha256(canonicalJson([name, target])).slice(0, 32);
}

let cache: { file: string; stamp: string; pins: Map<string, PinnedServer> } | undefined;

/** Every server's pins (read again only when the file changed). */
export function readPins(env: NodeJS.ProcessEnv): ReadonlyMap<string, PinnedServer> {
  const file = pinsFile(env);
  if (!existsSync(file)) return new Map();
  const info = statSync(file);
  const stamp = `${info.mtimeMs}:${info.size}:${info.ino}`;
  if (cache?.file === file && cache.stamp === stamp) return cache.pins;
  checkOwnership(file, 'record of pinned tools');
  let data: unknown;
  try {
    data = JSON.parse(readRegularFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `Cannot read the record of pinned tools ${file}: ${(error as Error).message}. Delete it (every mounted server's tools are then pinned again as they are next listed)`,
      [],
      file,
    );
  }
  const servers = (data as { servers?: unknown })?.servers;
  const pins = new Map<string, PinnedServer>();
  if (servers && typeof servers === 'object' && !Array.isArray(servers)) {
    for (const [key, value] of Object.entries(servers as Record<string, Partial<PinnedServer>>)) {
      if (value && typeof value.tools === 'object' && value.tools !== null) {
        pins.set(key, { name: String(value.name ?? ''), target: String(value.target ?? ''), tools: value.tools });
      }
    }
  }
  cache = { file, stamp, pins };
  return pins;
}

/**
 * Replaces one server's pins (undefined: forgets them). The record is read again right before it
 * is written, so a host that pinned another server meanwhile keeps its entry.
 */
export function writeServerPins(env: NodeJS.ProcessEnv, key: string, server: PinnedServer | undefined): string {
  const file = pinsFile(env);
  cache = undefined;
  const pins = new Map(readPins(env));
  if (server) pins.set(key, server);
  else pins.delete(key);
  const servers = Object.fromEntries([...pins].sort(([a], [b]) => a.localeCompare(b)));
  writeFileAtomic(file, `${JSON.stringify({ version: 1, servers }, null, 2)}\n`, { private: true });
  cache = undefined;
  return file;
}

/** Pins of `tools` as they are now, at `now`. */
export function pinnedTools(tools: readonly ToolDefinition[], now = new Date().toISOString()): Record<string, PinnedTool> {
  return Object.fromEntries(tools.map((def) => [def.name, { sha256: definitionHash(def), definition: def, pinnedAt: now }]));
}
