// `mcphost clients:add|list|remove`: the named HTTP clients of the user's config. A new client gets
// a random token, shown once; only its hash is written.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { openConfig } from './open.js';
import { CLIENT_NAME, TOKEN_HASH } from '../config/named-clients.js';
import { putClientToken, removeClient, userConfigFile } from '../config/named-clients-write.js';
import { tokenHash } from '../server/auth/client-tokens.js';
import { UsageError } from './usage-error.js';

interface TargetOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--config FILE`: write there instead of the user's own config. */
  configFile?: string;
}

function target(options: TargetOptions): string {
  const named = options.configFile ?? (options.env.MCPHOST_CONFIG || undefined);
  return named ? path.resolve(options.cwd, named) : userConfigFile(options.env);
}

function checkName(name: string): void {
  if (!CLIENT_NAME.test(name))
    throw new UsageError(`client name ${JSON.stringify(name)}: use letters, digits, _ . - (up to 63), e.g. ci-bot`);
}

export interface AddedClient {
  name: string;
  file: string;
  /** The bearer token, shown this once: only its hash is kept. */
  token: string;
  rotated: boolean;
}

export async function addClient(options: TargetOptions & { name: string; rotate?: boolean }): Promise<AddedClient> {
  checkName(options.name);
  const file = target(options);
  const exists = existsSync(file) && (await listClients({ ...options, configFile: file })).clients.some((c) => c.name === options.name);
  if (exists && !options.rotate)
    throw new UsageError(`client ${options.name} is already in ${file}: pass --rotate to give it a new token (the old one stops working)`);
  const token = `mcphost_${randomBytes(32).toString('base64url')}`;
  putClientToken(file, options.name, tokenHash(token));
  return { name: options.name, file, token, rotated: exists };
}

export async function dropClient(options: TargetOptions & { name: string }): Promise<{ name: string; file: string }> {
  checkName(options.name);
  const file = target(options);
  if (!removeClient(file, options.name)) throw new UsageError(`no client ${options.name} in ${file} (mcphost clients:list shows them)`);
  return { name: options.name, file };
}

export interface ListedClient {
  name: string;
  /** How its token is kept (never the token): a hash, a reference as written, or none (OAuth only). */
  token: 'hash' | 'reference' | 'none';
  tools: { allow: string[]; deny: string[] };
  subjects: string[];
  scopes: string[];
  limits: unknown;
}

export async function listClients(options: TargetOptions): Promise<{ file?: string; clients: ListedClient[]; withheld: boolean }> {
  const { resolved } = await openConfig({ ...options, logLevel: 'silent' });
  const clients = Object.entries(resolved.config.http.clients).map(([name, c]) => ({
    name,
    token: c.token === undefined ? ('none' as const) : TOKEN_HASH.test(c.token) ? ('hash' as const) : ('reference' as const),
    tools: { allow: [...c.tools.allow], deny: [...c.tools.deny] },
    subjects: [...c.subjects],
    scopes: [...c.scopes],
    limits: c.limits,
  }));
  return { file: resolved.file, clients, withheld: resolved.withheld.includes('http.clients') };
}
