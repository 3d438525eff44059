// Where things are: the user's PoB checkout (never part of this project) and our own Lua server.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Files an unmodified PoB checkout must have for the headless server. */
export const REQUIRED_FILES = ['src/HeadlessWrapper.lua', 'src/Launch.lua', 'runtime/lua/dkjson.lua'];

export const INSTALL_HINT = 'install LuaJIT and lua-zlib (`apt-get install luajit lua-zlib`)';
export const PATH_HINT =
  'set plugins.pob.pobPath in .mcprc (or POB_PATH) to a Path of Building Community checkout, e.g. `git clone https://github.com/PathOfBuildingCommunity/PathOfBuilding`';

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
export function pobVersion(pobPath: string): string | undefined {
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

/** The project's Lua folder: beside this file in the sources, or plugins/pob/lua from dist/. */
export function luaDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.join(here, 'lua');
  if (existsSync(path.join(beside, 'server.lua'))) return beside;
  return path.resolve(here, '../../../plugins/pob/lua');
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
