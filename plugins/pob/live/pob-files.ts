// Where things are: the user's PoB checkout (never part of this project) and our own Lua server.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Files an unmodified PoB checkout must have for the headless server. */
const REQUIRED_FILES = ['src/HeadlessWrapper.lua', 'src/Launch.lua', 'runtime/lua/dkjson.lua'];

export const INSTALL_HINT = 'install LuaJIT and lua-zlib (`apt-get install luajit lua-zlib`)';
const PATH_HINT =
  "set plugins.pob.pobPath in .mcprc (or POB_PATH) to a Path of Building Community checkout, e.g. `git clone https://github.com/PathOfBuildingCommunity/PathOfBuilding` (or POB_FORK_PATH to the pob-api fork's src folder)";

export interface PobPathCheck {
  ok: boolean;
  path?: string;
  missing: string[];
  version?: string;
  /** One line: what is wrong and how to fix it. */
  problem?: string;
}

export function checkPobPath(pobPath: string | undefined): PobPathCheck {
  if (!pobPath) return { ok: false, missing: REQUIRED_FILES, problem: `pobPath is not set: ${PATH_HINT}` };
  const missing = REQUIRED_FILES.filter((f) => !existsSync(path.join(pobPath, f)));
  if (missing.length > 0) {
    const what = existsSync(pobPath)
      ? `${pobPath} is not a Path of Building checkout: it lacks ${missing.join(', ')}`
      : `pobPath ${pobPath} does not exist`;
    return { ok: false, path: pobPath, missing, problem: `${what}; ${PATH_HINT}` };
  }
  return { ok: true, path: pobPath, missing, version: pobVersion(pobPath) };
}

/** PoB's version from its manifest.xml (`<Version number="2.55.5"/>`). */
function pobVersion(pobPath: string): string | undefined {
  for (const file of ['manifest.xml', 'src/manifest.xml']) {
    try {
      const match = /<Version\s+[^>]*number="([^"]+)"/.exec(readFileSync(path.join(pobPath, file), 'utf8'));
      if (match) return match[1];
    } catch {
      // try the next place
    }
  }
  return undefined;
}

/** The project's Lua folder: beside this file in the sources, or plugins/pob/live/lua from dist/. */
function luaDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.join(here, 'lua');
  if (existsSync(path.join(beside, 'server.lua'))) return beside;
  return path.resolve(here, '../../../../plugins/pob/live/lua');
}

/** How the server is spawned: cwd `<pob>/src`, our Lua first on LUA_PATH, no `CI` (PoB reads it). */
export function spawnEnvironment(
  pobPath: string,
  base: NodeJS.ProcessEnv = process.env,
): { cwd: string; env: Record<string, string | undefined>; script: string } {
  const dir = luaDir();
  const env: Record<string, string | undefined> = { ...base, LUA_PATH: `${dir}/?.lua;../runtime/lua/?.lua;../runtime/lua/?/init.lua;;` };
  delete env.CI;
  return { cwd: path.join(pobPath, 'src'), env, script: path.join(dir, 'server.lua') };
}

/** What marks a folder as the pob-api fork's src (charleslucas/PathOfBuilding and its kin). */
const FORK_MARKER = 'API/Handlers.lua';
/** Files the fork's stdio API needs, relative to its src folder. */
const FORK_FILES = ['HeadlessWrapper.lua', 'Launch.lua', 'API/Server.lua', FORK_MARKER];

export function holdsForkApi(src: string | undefined): boolean {
  return src !== undefined && existsSync(path.join(src, FORK_MARKER));
}

/** Checks the fork's src folder; the PoB version comes from the checkout's manifest.xml. */
export function checkForkPath(src: string): PobPathCheck {
  const missing = FORK_FILES.filter((f) => !existsSync(path.join(src, f)));
  if (missing.length > 0) {
    const what = existsSync(src) ? `${src} is not the pob-api fork's src folder: it lacks ${missing.join(', ')}` : `${src} does not exist`;
    return {
      ok: false,
      path: src,
      missing,
      problem: `${what}; set plugins.pob.forkPath (POB_FORK_PATH) to the fork's src folder, or plugins.pob.server: mcphost (POB_SERVER) to run mcphost's own Lua server`,
    };
  }
  return { ok: true, path: src, missing, version: pobVersion(path.dirname(src)) };
}

/**
 * How the fork's own stdio API is spawned: cwd its src folder, `POB_API_STDIO=1` (its
 * HeadlessWrapper.lua then runs API/Server.lua), our pure-Lua `lua-utf8` stand-in reachable (the
 * C rock is in neither Debian nor npm), no `CI`.
 */
export function forkSpawnEnvironment(
  src: string,
  base: NodeJS.ProcessEnv = process.env,
): { cwd: string; env: Record<string, string | undefined> } {
  const env: Record<string, string | undefined> = { ...base, POB_API_STDIO: '1', LUA_PATH: `${luaDir()}/?.lua;;` };
  delete env.CI;
  return { cwd: src, env };
}
