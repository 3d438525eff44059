// Writes `http.clients.<name>.token` into a config file (and takes a client out of one), keeping the
// rest: YAML through the `yaml` library's document model (comments and layout stay), JSON as JSON.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { userConfigDir } from './cache-dir.js';
import { ConfigError } from './errors.js';
import { writableFormat } from './mcprc-write.js';
import { writeFileAtomicSync as writeFileAtomic } from '../kit/atomic-write.js';

/** The user's own config file: the one there is in their config folder, else a new config.yaml there. */
export function userConfigFile(env: NodeJS.ProcessEnv): string {
  const dir = userConfigDir(env);
  const existing = ['config', 'config.yaml', 'config.yml', 'config.json', 'config.js', 'config.cjs', 'config.mjs']
    .map((f) => path.join(dir, f))
    .find((f) => existsSync(f));
  return existing ?? path.join(dir, 'config.yaml');
}

type Edit = (clients: Record<string, unknown>) => boolean;

function edit(file: string, change: { set?: { name: string; hash: string }; remove?: string }): boolean {
  const format = writableFormat(file);
  if (!format)
    throw new ConfigError(`${file} is not a file mcphost rewrites (JavaScript or package.json); edit http.clients by hand`, [], file);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const apply: Edit = (clients) => {
    if (change.remove !== undefined) {
      if (!(change.remove in clients)) return false;
      delete clients[change.remove];
      return true;
    }
    const { name, hash } = change.set!;
    const entry = (clients[name] ?? {}) as Record<string, unknown>;
    clients[name] = { ...entry, token: hash };
    return true;
  };
  if (format === 'json') {
    const config = (text.trim() ? JSON.parse(text) : {}) as { http?: { clients?: Record<string, unknown> } };
    config.http ??= {};
    config.http.clients ??= {};
    if (!apply(config.http.clients)) return false;
    writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`, { private: true });
    return true;
  }
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new ConfigError(`Cannot read config ${file}: ${doc.errors[0].message}`, [], file);
  if (change.remove !== undefined) {
    if (!doc.hasIn(['http', 'clients', change.remove])) return false;
    doc.deleteIn(['http', 'clients', change.remove]);
  } else {
    const { name, hash } = change.set!;
    if (!doc.hasIn(['http'])) doc.set('http', doc.createNode({}));
    if (!doc.hasIn(['http', 'clients'])) doc.setIn(['http', 'clients'], doc.createNode({}));
    if (!doc.hasIn(['http', 'clients', name])) doc.setIn(['http', 'clients', name], doc.createNode({}));
    doc.setIn(['http', 'clients', name, 'token'], hash);
  }
  writeFileAtomic(file, doc.toString({ lineWidth: 0 }), { private: true });
  return true;
}

/** Sets the client's token hash (a new client, or a new token for one that is there). */
export function putClientToken(file: string, name: string, hash: string): void {
  edit(file, { set: { name, hash } });
}

/** Takes the client out; false when the file has none of that name. */
export function removeClient(file: string, name: string): boolean {
  return edit(file, { remove: name });
}
