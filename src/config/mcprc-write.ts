// Adds `servers` entries to an existing `.mcprc` (or a new one) without losing what is there: YAML
// through the `yaml` library's document model, which keeps comments and layout; JSON as JSON. A
// JavaScript config or package.json is not rewritten (the caller prints the entries instead).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, parseDocument } from 'yaml';
import { ConfigError } from './errors.js';
import { writeFileAtomicSync as writeFileAtomic } from '../kit/atomic-write.js';

export function writableFormat(file: string): 'yaml' | 'json' | undefined {
  const base = path.basename(file);
  if (base === 'package.json' || /\.(c|m)?js$/.test(base)) return undefined;
  if (base.endsWith('.json')) return 'json';
  if (!existsSync(file)) return 'yaml';
  return readFileSync(file, 'utf8').trimStart().startsWith('{') ? 'json' : 'yaml';
}

/** Adds each entry under `servers`; names already there are left alone and returned. */
export function addServers(file: string, entries: Record<string, Record<string, unknown>>): { added: string[]; present: string[] } {
  const format = writableFormat(file);
  if (!format)
    throw new ConfigError(`${file} is not a file mcphost rewrites (JavaScript or package.json); add the servers by hand`, [], file);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const added: string[] = [];
  const present: string[] = [];
  if (format === 'json') {
    const config = (text.trim() ? JSON.parse(text) : {}) as Record<string, Record<string, unknown>>;
    config.servers ??= {};
    for (const [name, entry] of Object.entries(entries)) {
      if (name in config.servers || name in (config.mcpServers ?? {})) {
        present.push(name);
      } else {
        config.servers[name] = entry;
        added.push(name);
      }
    }
    if (added.length > 0) writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`);
    return { added, present };
  }
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new ConfigError(`Cannot read config ${file}: ${doc.errors[0].message}`, [], file);
  if (!isMap(doc.get('servers', true))) doc.set('servers', doc.createNode({}));
  const mcp = doc.get('mcpServers', true);
  for (const [name, entry] of Object.entries(entries)) {
    if (doc.hasIn(['servers', name]) || (isMap(mcp) && mcp.has(name))) {
      present.push(name);
    } else {
      doc.setIn(['servers', name], doc.createNode(entry, { flow: true }));
      added.push(name);
    }
  }
  // An empty `servers: {}` written in flow style would keep new entries on one line.
  const servers = doc.get('servers', true);
  if (isMap(servers)) servers.flow = false;
  if (added.length > 0) writeFileAtomic(file, doc.toString({ lineWidth: 0 }));
  return { added, present };
}
