// Where mcphost looks for `.mcprc` without being told. The search is bounded, so a file planted
// above the user's work never applies: from the working directory up to the top of the git
// repository it is in, or the home directory, whichever comes first; outside the home directory,
// only the working directory itself (a `/tmp/.mcprc.js` written by anyone else is never reached
// from `/tmp/x`). Then the user's own config folder. Finding a file reads nothing but package.json.
import { existsSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { userConfigDir } from './cache-dir.js';
import { readRegularFileSync } from '../kit/regular-file.js';

const SEARCH_PLACES = [
  'package.json',
  '.mcprc',
  '.mcprc.json',
  '.mcprc.yaml',
  '.mcprc.yml',
  '.mcprc.js',
  '.mcprc.cjs',
  '.mcprc.mjs',
  'mcphost.config.js',
  'mcphost.config.cjs',
  'mcphost.config.mjs',
];

/** The names cosmiconfig gave files in the user's config folder (`~/.config/mcphost/config.yaml`). */
const USER_PLACES = ['config', 'config.json', 'config.yaml', 'config.yml', 'config.js', 'config.cjs', 'config.mjs'];

/** Configs that are code: loading one runs it. */
export function isExecutableConfig(file: string): boolean {
  return /\.(c|m)?(j|t)s$/.test(file);
}

function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

function inside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The folders searched, nearest first (the user's config folder is not among them). */
export function searchDirs(cwd: string, env: NodeJS.ProcessEnv): string[] {
  const start = real(cwd);
  const homeVar = env.HOME || env.USERPROFILE || os.homedir();
  const home = homeVar ? real(homeVar) : undefined;
  // A home at the filesystem root (service accounts) would make everything "inside home".
  if (!home || path.dirname(home) === home || !inside(start, home)) return [start];
  const dirs: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    dirs.push(dir);
    if (dir === home || existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) break;
  }
  return dirs;
}

/** Anything but a folder under a config's name is a candidate: a FIFO or device is then refused by type when read, never skipped. */
function isFile(file: string): boolean {
  try {
    return !statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A package.json counts only when it has a `"mcphost"` key that is a config; one that does not parse
 * is not ours to judge. A plugin's own package.json carries `"mcphost": {"backend": …}`, its manifest
 * (loader/installed.ts), and `backend` is no config key: that file is the plugin's, not a config, so
 * commands run in a plugin's folder search on as if it were not there.
 */
function hasMcphostConfig(file: string): boolean {
  try {
    const value = JSON.parse(readRegularFileSync(file, 'utf8')) as unknown;
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, 'mcphost')) return false;
    const section = (value as { mcphost: unknown }).mcphost;
    return !(section !== null && typeof section === 'object' && Object.hasOwn(section, 'backend'));
  } catch {
    return false;
  }
}

export interface Candidate {
  file: string;
  /** Found in the user's own config folder. */
  user: boolean;
}

/** Every config file the search would consider, nearest first (the first that is not empty wins). */
export function candidates(cwd: string, env: NodeJS.ProcessEnv): Candidate[] {
  const out: Candidate[] = [];
  for (const dir of searchDirs(cwd, env)) {
    for (const place of SEARCH_PLACES) {
      const file = path.join(dir, place);
      if (isFile(file) && (place !== 'package.json' || hasMcphostConfig(file))) out.push({ file, user: false });
    }
  }
  const own = userConfigDir(env);
  for (const place of USER_PLACES) {
    const file = path.join(own, place);
    if (isFile(file)) out.push({ file, user: true });
  }
  return out;
}
