// Adds (or replaces) one server in an MCP client's JSON file (claude_desktop_config.json,
// .cursor/mcp.json, .mcp.json), keeping every other key of the file as it is.
import { existsSync, readFileSync } from 'node:fs';
import { ConfigError } from './errors.js';
import { isPlainObject } from './layers.js';
import { writeFileAtomic } from './write-file.js';

export function putClientServer(file: string, name: string, entry: Record<string, unknown>): 'added' | 'replaced' {
  let config: Record<string, unknown> = {};
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    try {
      config = text.trim() ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch (error) {
      throw new ConfigError(`Cannot update ${file}: it is not plain JSON (${(error as Error).message}); add the entry by hand`, [], file);
    }
    if (!isPlainObject(config)) throw new ConfigError(`Cannot update ${file}: expected a JSON object at the top level`, [], file);
  }
  const servers = isPlainObject(config.mcpServers) ? config.mcpServers : {};
  const outcome = name in servers ? 'replaced' : 'added';
  config.mcpServers = { ...servers, [name]: entry };
  writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`);
  return outcome;
}
