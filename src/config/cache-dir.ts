// Where caches go when the config does not say: the user's cache directory, so an index built once
// is found again from any working directory (a client launching mcphost from elsewhere, a read-only
// project folder) and nothing is left behind in the folder mcphost was started from.
import os from 'node:os';
import path from 'node:path';

export function userCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'mcphost', 'Cache');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'mcphost');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'mcphost');
}
