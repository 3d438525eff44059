// Adds (or replaces) one server in an MCP client's file, keeping everything else in it: plain JSON
// (claude_desktop_config.json, .cursor/mcp.json, .mcp.json) is rewritten with every other key;
// JSONC (VS Code's mcp.json, Zed's settings.json, Windsurf's mcp_config.json) is edited in place by
// jsonc-parser, so comments and the user's layout stay; TOML (Codex's config.toml) has only
// mcphost's own tables replaced as text, and the result is parsed back to check nothing else moved.
import { existsSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { applyEdits, modify } from 'jsonc-parser';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { parseClientText, type ClientFormat } from './clients.js';
import { ConfigError } from './errors.js';
import { isPlainObject } from './layers.js';
import { writeFileAtomicSync as writeFileAtomic } from '../kit/atomic-write.js';

export interface ClientFileShape {
  format: ClientFormat;
  /** The top-level key holding the servers (mcpServers, servers, context_servers, mcp_servers). */
  key: string;
}

const JSON_SHAPE: ClientFileShape = { format: 'json', key: 'mcpServers' };

export function putClientServer(
  file: string,
  name: string,
  entry: Record<string, unknown>,
  shape: ClientFileShape = JSON_SHAPE,
): 'added' | 'replaced' {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  let config: unknown = {};
  try {
    if (text.trim()) config = parseClientText(text, shape.format);
  } catch (error) {
    throw new ConfigError(
      `Cannot update ${file}: it is not valid ${shape.format.toUpperCase()} (${(error as Error).message}); fix it or add the entry by hand`,
      [],
      file,
    );
  }
  if (!isPlainObject(config)) throw new ConfigError(`Cannot update ${file}: expected an object at the top level`, [], file);
  if (shape.format !== 'json' && config[shape.key] !== undefined && !isPlainObject(config[shape.key]))
    throw new ConfigError(`Cannot update ${file}: "${shape.key}" is not an object; fix it or add the entry by hand`, [], file);
  const servers = isPlainObject(config[shape.key]) ? config[shape.key] : {};
  const outcome = name in (servers as object) ? 'replaced' : 'added';
  writeFileAtomic(file, render(text, config, name, entry, shape, file));
  return outcome;
}

function render(
  text: string,
  config: Record<string, unknown>,
  name: string,
  entry: Record<string, unknown>,
  shape: ClientFileShape,
  file: string,
): string {
  if (shape.format === 'json') {
    const servers = isPlainObject(config[shape.key]) ? config[shape.key] : {};
    return `${JSON.stringify({ ...config, [shape.key]: { ...(servers as object), [name]: entry } }, null, 2)}\n`;
  }
  if (shape.format === 'jsonc') {
    const source = text.trim() ? text : '{}\n';
    const edits = modify(source, [shape.key, name], entry, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } });
    return applyEdits(source, edits);
  }
  return putTomlTable(text, config, name, entry, shape.key, file);
}

/** The key path a TOML table header names (`[a."b c".d]` → a, b c, d), read by the TOML parser itself. */
function headerPath(line: string): string[] | undefined {
  const match = /^\s*\[\[?([^[\]]+)\]\]?\s*(#.*)?$/.exec(line);
  if (!match) return undefined;
  try {
    const keys: string[] = [];
    let value: unknown = parseToml(`[${match[1]}]\n`);
    while (isPlainObject(value) && Object.keys(value).length === 1) {
      const key = Object.keys(value)[0]!;
      keys.push(key);
      value = value[key];
    }
    return keys;
  } catch {
    return undefined;
  }
}

function putTomlTable(
  text: string,
  config: Record<string, unknown>,
  name: string,
  entry: Record<string, unknown>,
  key: string,
  file: string,
): string {
  // Drop mcphost's own [key.name] and [key.name.*] tables (up to the next header); keep every other line.
  const kept: string[] = [];
  let dropping = false;
  for (const line of text.split('\n')) {
    const header = headerPath(line);
    if (header) dropping = header[0] === key && header[1] === name;
    if (!dropping) kept.push(line);
  }
  const body = kept.join('\n').replace(/\s*$/, '');
  const table = stringifyToml({ [key]: { [name]: entry } }).trim();
  const next = `${body ? `${body}\n\n` : ''}${table}\n`;
  const servers = isPlainObject(config[key]) ? config[key] : {};
  const expected = { ...config, [key]: { ...(servers as object), [name]: entry } };
  let written: unknown;
  try {
    written = parseToml(next);
  } catch {
    written = undefined;
  }
  // A server written as an inline table or with dotted keys is not a table of its own: leave it to the user.
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(written ?? null)), JSON.parse(JSON.stringify(expected))))
    throw new ConfigError(
      `Cannot update ${file}: ${key}.${name} is written in a form mcphost does not edit (an inline table or dotted keys); remove it and run connect again, or add the entry by hand`,
      [],
      file,
    );
  return next;
}

/** The entry as it would appear in the client's file (for --dry-run). */
export function renderClientEntry(name: string, entry: Record<string, unknown>, shape: ClientFileShape = JSON_SHAPE): string {
  const value = { [shape.key]: { [name]: entry } };
  return shape.format === 'toml' ? stringifyToml(value).trim() : JSON.stringify(value, null, 2);
}
