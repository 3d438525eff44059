// Pinned tools for one mounted server: the tools it lists are compared with those the user approved
// (config/tool-pins.ts). The first list the server answers once it may run at all — its file
// approved with `mcphost trust`, or the user's own config — is pinned as it is. From then on a tool
// whose definition differs, or a tool that is new, is withheld from every client (`block`, the
// default for a project's files) or served with a warning (`warn`, the default for the user's own
// config), until `mcphost trust --tools <server>` pins the definitions the server lists now.
// `off` compares nothing. A list served from the cache file before the server answers is filtered
// the same way, so a restart does not serve for a moment what the last run withheld.
import type { Tool } from '@modelcontextprotocol/client';
import type { Logger } from '../backend/types.js';
import {
  canonicalJson,
  definitionHash,
  pinnedTools,
  readPins,
  toolDefinition,
  writeServerPins,
  type PinnedServer,
  type ToolDefinition,
} from '../config/tool-pins.js';

export type PinMode = 'block' | 'warn' | 'off';

export interface PinOptions {
  /** The server's name (what `mcphost trust --tools` takes). */
  name: string;
  /** serverPinKey(name, target). */
  key: string;
  /** Its command line or URL, for the record. */
  target: string;
  mode: PinMode;
  env: NodeJS.ProcessEnv;
}

export interface ChangedTool {
  tool: string;
  /** `description: "Echoes" → "Echoes, and …"`, one line per field that differs (at most a few). */
  difference: string[];
}

export interface PinStatus {
  mode: PinMode;
  /** Tools that differ from what was approved. */
  changed: ChangedTool[];
  /** Tools the server did not list when it was approved. */
  added: string[];
  /** Of those, the ones not served (block). */
  withheld: string[];
}

/** What to run to approve the server's tools as they are now. */
const approveToolsHint = (name: string) => `mcphost trust --tools ${name}`;

export function createPinning(options: PinOptions, logger?: Logger) {
  let status: PinStatus = { mode: options.mode, changed: [], added: [], withheld: [] };
  const warned = new Set<string>();

  function filter(tools: Tool[], live: boolean): Tool[] {
    if (options.mode === 'off') return tools;
    const record = readPins(options.env).get(options.key);
    if (!record) {
      // Nothing approved yet: the first list the server answers is what the user approved.
      if (live) {
        const defs = tools.map(toolDefinition);
        writeServerPins(options.env, options.key, { name: options.name, target: options.target, tools: pinnedTools(defs) });
        logger?.debug(`pinned ${defs.length} tools of ${options.name}`);
      }
      status = { mode: options.mode, changed: [], added: [], withheld: [] };
      return tools;
    }
    const next: PinStatus = { mode: options.mode, changed: [], added: [], withheld: [] };
    const kept = tools.filter((tool) => {
      const def = toolDefinition(tool);
      const pinned = record.tools[tool.name];
      if (pinned && pinned.sha256 === definitionHash(def)) return true;
      if (pinned) next.changed.push({ tool: tool.name, difference: difference(pinned.definition, def) });
      else next.added.push(tool.name);
      if (options.mode === 'block') next.withheld.push(tool.name);
      const seen = `${tool.name}:${definitionHash(def)}`;
      if (!warned.has(seen)) {
        warned.add(seen);
        logger?.warn(describe(options, tool.name, pinned ? difference(pinned.definition, def) : undefined));
      }
      return options.mode !== 'block';
    });
    status = next;
    return kept;
  }

  return {
    filter,
    /** What the last list held that was not as approved. */
    status: (): PinStatus => status,
  };
}

function describe(options: PinOptions, tool: string, diff: string[] | undefined): string {
  const what = diff ? `changed since you approved it (${diff.join('; ')})` : 'is new since you approved the server';
  const done = options.mode === 'block' ? 'withheld from every client' : 'served anyway (pinTools: warn)';
  return `${options.name}: tool ${tool} ${what}: ${done}; approve it with \`${approveToolsHint(options.name)}\``;
}

/** One line for a report: `2 tools withheld (echo changed: description: …); run …`. */
export function pinSummary(name: string, status: PinStatus): string | undefined {
  const parts = [...status.changed.map((c) => `${c.tool} changed (${c.difference.join('; ')})`), ...status.added.map((t) => `${t} is new`)];
  if (parts.length === 0) return undefined;
  const count = status.changed.length + status.added.length;
  const verb = status.mode === 'block' ? 'withheld' : 'served although not approved';
  return `${count} tool${count === 1 ? '' : 's'} ${verb} since approval: ${parts.join('; ')}; approve with \`${approveToolsHint(name)}\``;
}

const MAX_LINES = 6;
const MAX_VALUE = 120;

/** Where two definitions differ: one `path: old → new` line per differing value, the first few. */
function difference(before: ToolDefinition, after: ToolDefinition): string[] {
  const lines: string[] = [];
  const walk = (a: unknown, b: unknown, at: string) => {
    if (canonicalJson(a) === canonicalJson(b)) return;
    const objects = a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b);
    if (objects) {
      const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])].sort();
      for (const k of keys) walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], at ? `${at}.${k}` : k);
      return;
    }
    lines.push(`${at}: ${shown(a)} → ${shown(b)}`);
  };
  walk(before, after, '');
  return lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), `and ${lines.length - MAX_LINES} more`] : lines;
}

function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** Pins what the server lists now (`mcphost trust --tools`); answers what this approves beyond the old pins. */
export function approveTools(
  options: Omit<PinOptions, 'mode'>,
  tools: readonly Tool[],
): { changed: ChangedTool[]; added: string[]; file: string } {
  const before: PinnedServer | undefined = readPins(options.env).get(options.key);
  const defs = tools.map(toolDefinition);
  const changed: ChangedTool[] = [];
  const added: string[] = [];
  for (const def of defs) {
    const pinned = before?.tools[def.name];
    if (!pinned) added.push(def.name);
    else if (pinned.sha256 !== definitionHash(def)) changed.push({ tool: def.name, difference: difference(pinned.definition, def) });
  }
  const file = writeServerPins(options.env, options.key, { name: options.name, target: options.target, tools: pinnedTools(defs) });
  return { changed, added: before ? added : [], file };
}
