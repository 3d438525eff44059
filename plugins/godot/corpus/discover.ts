// Finds the class XML under a doc folder. Accepted layouts, all read from inside the folder only:
//   <dir>/classes/*.xml (+ modules/*/doc_classes, platform/*/doc_classes)  — Godot's doc/ folder
//   <dir>/doc/classes/*.xml (+ modules/…, platform/…)                      — a checkout or a --doctool dump
//   <dir>/*.xml                                                            — a flat folder of class files
import { existsSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { UnavailableError } from '../../../src/backend/index.js';

export interface CorpusFile {
  /** Path relative to the root, with `/` separators. */
  rel: string;
  size: number;
  mtimeMs: number;
}

export interface Corpus {
  /** The doc folder, resolved through symlinks. */
  root: string;
  files: CorpusFile[];
  /** Folders holding XML (for watching). */
  dirs: string[];
}

const DOC_DIR_FIX =
  'Set plugins.godot.docDir in .mcprc (or GODOT_DOC_DIR) to the doc/ folder of a Godot source checkout (the one holding classes/*.xml), ' +
  'or set plugins.godot.godotBinary to dump the reference of your engine with --doctool.';

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** `<base>/*\/doc_classes` folders (modules and platforms). */
function docClassDirs(base: string): string[] {
  return entries(base)
    .filter((e) => e.isDirectory())
    .map((e) => path.join(base, e.name, 'doc_classes'))
    .filter(isDir)
    .sort();
}

function xmlDirs(root: string): string[] {
  if (isDir(path.join(root, 'classes'))) {
    return [path.join(root, 'classes'), ...docClassDirs(path.join(root, 'modules')), ...docClassDirs(path.join(root, 'platform'))];
  }
  if (isDir(path.join(root, 'doc', 'classes'))) {
    return [path.join(root, 'doc', 'classes'), ...docClassDirs(path.join(root, 'modules')), ...docClassDirs(path.join(root, 'platform'))];
  }
  return [root];
}

/** True when `child` (already resolved) lies inside `root`. */
export function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * Lists the class files of a doc folder. Throws UnavailableError naming the path tried and the fix
 * when the folder is missing or holds no class XML. Symlinks leading outside the folder are skipped.
 */
export function discover(docDir: string, warn: (message: string) => void = () => undefined): Corpus {
  const abs = path.resolve(docDir);
  if (!existsSync(abs)) throw new UnavailableError(`Godot doc folder ${abs} does not exist. ${DOC_DIR_FIX}`, { data: { docDir: abs } });
  if (!isDir(abs)) throw new UnavailableError(`Godot doc folder ${abs} is not a folder. ${DOC_DIR_FIX}`, { data: { docDir: abs } });
  const root = realpathSync(abs);
  const dirs = xmlDirs(root);
  const files: CorpusFile[] = [];
  for (const dir of dirs) {
    for (const entry of entries(dir)) {
      if (!entry.name.endsWith('.xml') || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(full);
        } catch {
          continue;
        }
        if (!isInside(root, target)) {
          warn(`skipping ${full}: it links outside the doc folder ${root}`);
          continue;
        }
      } else if (!entry.isFile()) continue;
      const st = statSync(full);
      if (!st.isFile()) {
        warn(`skipping ${full}: it is not a regular file (a FIFO, socket, device or folder)`);
        continue;
      }
      files.push({ rel: path.relative(root, full).split(path.sep).join('/'), size: st.size, mtimeMs: Math.trunc(st.mtimeMs) });
    }
  }
  if (files.length === 0) {
    throw new UnavailableError(
      `No Godot class XML found in ${abs} (looked in ${dirs.map((d) => path.relative(root, d) || '.').join(', ')}). ${DOC_DIR_FIX}`,
      {
        data: { docDir: abs },
      },
    );
  }
  files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { root, files, dirs };
}
