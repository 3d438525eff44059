// A config file mcphost reads without being told (found by searching, a client's project file, the
// trust store) must be the user's own or root's, and writable by nobody else: otherwise another
// local user could plant or edit it and run commands as whoever starts mcphost there. The same
// rule as ssh's for ~/.ssh/config and git's `safe.directory` for a repository owned by someone else.
// Its folder too: whoever may write the folder may swap the file for another between the moment it
// is hashed and the moment it runs, or replace the private copy a code config runs from. A folder
// with the sticky bit (/tmp) is the exception: there nobody but a file's owner may rename or remove it.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
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
  checkFolder(file, what, uid);
}

function checkFolder(file: string, what: string, uid: number): void {
  let dir: string;
  let info;
  try {
    dir = path.dirname(realpathSync(file));
    info = statSync(dir);
  } catch {
    return;
  }
  if (info.uid !== uid && info.uid !== 0) {
    throw new ConfigError(
      `Refusing ${what} ${file}: its folder ${dir} belongs to another user (uid ${info.uid}; you are uid ${uid}), who could swap the file ` +
        `for another after mcphost checked it. Run mcphost from a folder of your own, or copy the config there and pass --config.`,
      [],
      file,
    );
  }
  const sticky = (info.mode & 0o1000) !== 0;
  if ((info.mode & 0o022) !== 0 && !sticky) {
    throw new ConfigError(
      `Refusing ${what} ${file}: group and others can write its folder ${dir} (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}), ` +
        `so another user could swap the file for another after mcphost checked it. Fix: chmod go-w ${dir}`,
      [],
      file,
    );
  }
}
