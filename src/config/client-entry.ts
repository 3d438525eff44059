// One server entry of a client's file turned into .mcprc's `servers` shape: the keys mcphost knows
// are kept (command, args, env, cwd, url, headers, type), client-specific ones (Cursor's envFile,
// Cline's autoApprove, …) dropped, as mcporter does. An entry that starts mcphost itself is
// skipped: a project's .mcp.json usually lists mcphost, and mounting it would start mcphost
// inside mcphost.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isPlainObject } from './layers.js';

const KEPT = ['type', 'command', 'args', 'env', 'cwd', 'url', 'headers'] as const;

export type EntryOutcome = { server: Record<string, unknown> } | { skip: string };

export function toServerEntry(value: unknown, rewrite?: (text: string) => string): EntryOutcome {
  if (!isPlainObject(value)) return { skip: 'not an object' };
  if (value.disabled === true || value.enabled === false) return { skip: 'disabled in the client' };
  const server: Record<string, unknown> = {};
  for (const key of KEPT) if (value[key] !== undefined) server[key] = rewrite ? rewriteStrings(value[key], rewrite) : value[key];
  // Windsurf and older clients write the URL under another name.
  if (server.url === undefined && typeof value.serverUrl === 'string') server.url = value.serverUrl;
  if (server.command === undefined && server.url === undefined) return { skip: 'neither command nor url' };
  if (runsMcphost(server)) return { skip: 'it starts mcphost itself' };
  return { server };
}

function rewriteStrings(value: unknown, rewrite: (text: string) => string): unknown {
  if (typeof value === 'string') return rewrite(value);
  if (Array.isArray(value)) return value.map((v) => rewriteStrings(v, rewrite));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteStrings(v, rewrite)]));
  return value;
}

/** `mcphost …`, `npx mcphost …`, or `node <a checkout of mcphost>/bin/run.js …`. */
function runsMcphost(server: Record<string, unknown>): boolean {
  const words = [server.command, ...(Array.isArray(server.args) ? server.args : [])].filter((w): w is string => typeof w === 'string');
  return words.some((word) => {
    const base = path.basename(word).replace(/\.(cmd|exe|js)$/i, '');
    if (base === 'mcphost' || word === 'mcphost' || /^mcphost@/.test(word)) return true;
    if (base !== 'run' || path.basename(path.dirname(word)) !== 'bin') return false;
    const pjson = path.join(path.dirname(path.dirname(word)), 'package.json');
    try {
      return existsSync(pjson) && (JSON.parse(readFileSync(pjson, 'utf8')) as { name?: unknown }).name === 'mcphost';
    } catch {
      return false;
    }
  });
}
