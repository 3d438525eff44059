// The user's own folders. Caches go, when the config does not say, to the user's cache directory, so
// an index built once is found again from any working directory (a client launching mcphost from
// elsewhere, a read-only project folder) and nothing is left behind where mcphost was started.
import os from 'node:os';
import path from 'node:path';

export function userCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'mcphost', 'Cache');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'mcphost');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'mcphost');
}

/**
 * The user's own mcphost folder (`$XDG_CONFIG_HOME/mcphost`, `~/.config/mcphost`; the folders
 * cosmiconfig's env-paths names on macOS and Windows): its `config*` files are the user's own
 * config, and the record of approved project files lives there too.
 */
export function userConfigDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'mcphost', 'Config');
  if (platform === 'darwin') return path.join(home, 'Library', 'Preferences', 'mcphost');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'mcphost');
}
