// Finds `.mcprc` (and its siblings) with cosmiconfig, searching up from the working directory.
import { homedir } from 'node:os';
import path from 'node:path';
import { cosmiconfig, defaultLoaders, type Loader } from 'cosmiconfig';
import { projectClientServers, type ClientKind, type ClientServers } from './clients.js';
import { ConfigError } from './errors.js';
import { checkConfigShape } from './limits.js';
import { IMPORT_KINDS } from './schema.js';
import { loadYaml } from './yaml.js';
import { assertRegularIfPresent, NotRegularFileError } from '../lib/regular-file.js';

export const SEARCH_PLACES = [
  'package.json',
  '.mcprc',
  '.mcprc.json',
  '.mcprc.yaml',
  '.mcprc.yml',
  '.mcprc.js',
  '.mcprc.mjs',
  'mcphost.config.js',
  'mcphost.config.mjs',
];

export interface FoundConfig {
  /** Absolute path of the file, or undefined when none was found. */
  file?: string;
  raw: Record<string, unknown>;
  /** Servers in MCP clients' project files in the working directory (.mcp.json, .cursor/mcp.json), per `imports`. */
  clients?: ClientServers[];
}

export interface FindOptions {
  cwd: string;
  file?: string;
  stopDir?: string;
  /** For the clients' files: HOME and friends (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
}

export async function findConfig(options: FindOptions): Promise<FoundConfig> {
  const found = await findMcprc(options);
  const kinds = Array.isArray(found.raw.imports) ? (found.raw.imports as ClientKind[]) : IMPORT_KINDS;
  const clients = projectClientServers(
    kinds.filter((k) => (IMPORT_KINDS as readonly string[]).includes(k)),
    options.cwd,
    options.env ?? process.env,
  );
  return clients.length > 0 ? { ...found, clients } : found;
}

/** The files the search may read: each search place from the working directory up to where it stops. */
function searchedFiles(options: FindOptions): string[] {
  const stop = path.resolve(options.stopDir ?? homedir());
  const files: string[] = [];
  for (let dir = path.resolve(options.cwd); ; dir = path.dirname(dir)) {
    for (const place of SEARCH_PLACES) files.push(path.join(dir, place));
    if (dir === stop || path.dirname(dir) === dir) return files;
  }
}

async function findMcprc(options: FindOptions): Promise<FoundConfig> {
  // YAML through our loader (bounded aliases); an explicit file with an extension cosmiconfig does
  // not know (.mcprc.example, .mcprc.local) is read as YAML, which takes JSON too.
  const yaml: Loader = (file, content) => loadYaml(file, content);
  const ext = options.file ? path.extname(options.file) : '';
  const loaders: Record<string, Loader> = { '.yaml': yaml, '.yml': yaml, noExt: yaml };
  if (ext && !(ext in defaultLoaders)) loaders[ext] = yaml;
  const explorer = cosmiconfig('mcphost', {
    searchPlaces: SEARCH_PLACES,
    loaders,
    searchStrategy: 'global',
    stopDir: options.stopDir,
    cache: false,
  });
  let result;
  try {
    // cosmiconfig reads what it finds; a FIFO or device under a config's name would block it for good.
    for (const candidate of options.file ? [path.resolve(options.cwd, options.file)] : searchedFiles(options))
      assertRegularIfPresent(candidate);
    result = options.file ? await explorer.load(path.resolve(options.cwd, options.file)) : await explorer.search(options.cwd);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    if (error instanceof NotRegularFileError)
      throw new ConfigError(`Cannot read config ${error.path}: ${error.message}; remove it or rename it`, [], error.path);
    const file = options.file ? path.resolve(options.cwd, options.file) : undefined;
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message;
    throw new ConfigError(`Cannot read config${file ? ` ${file}` : ''}: ${reason}`, [], file);
  }
  if (!result || result.isEmpty) return { file: result?.filepath, raw: {} };
  const raw: unknown = result.config;
  checkConfigShape(raw, result.filepath);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(`Invalid config in ${result.filepath}: expected an object at the top level`, [], result.filepath);
  }
  return { file: result.filepath, raw: raw as Record<string, unknown> };
}
