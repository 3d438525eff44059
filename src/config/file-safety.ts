// A config file mcphost reads without being told (found by searching, a client's project file, the
// trust store) must be the user's own or root's, and writable by nobody else: otherwise another
// local user could plant or edit it and run commands as whoever starts mcphost there. The same
// rule as ssh's for ~/.ssh/config and git's `safe.directory` for a repository owned by someone else.
import { statSync } from 'node:fs';
import { ConfigError } from './errors.js';

/** Throws a ConfigError (exit 3) naming `file` and the fix when another user owns it or could write it. */
export function checkOwnership(file: string, what = 'config file'): void {
  // Windows has no uid or mode bits to check; its ACLs are out of reach of node:fs.
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return;
  let info;
  try {
    info = statSync(file);
  } catch {
    return; // Gone since it was found: reading it fails next, with its own message.
  }
  const uid = process.getuid();
  if (info.uid !== uid && info.uid !== 0) {
    throw new ConfigError(
      `Refusing ${what} ${file}: it belongs to another user (uid ${info.uid}; you are uid ${uid}), who could run commands as you through it. ` +
        `Remove it (or have its owner move it), run mcphost from another folder, or copy it somewhere of your own and pass --config.`,
      [],
      file,
    );
  }
  if ((info.mode & 0o022) !== 0) {
    throw new ConfigError(
      `Refusing ${what} ${file}: group and others can write it (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}), so another user ` +
        `could run commands as you through it. Fix: chmod go-w ${file}`,
      [],
      file,
    );
  }
}
