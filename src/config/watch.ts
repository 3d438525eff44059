// Watches a few files for changes of content. Each file's folder is watched (an editor that saves
// by writing a new file and renaming it over the old one replaces the file a watch on it would
// follow), events are gathered for a moment (one save is several events), and a change is reported
// only when the content's hash differs from the last one seen, so a touch or a duplicate event
// costs a read and nothing else. A file that appears or disappears counts as a change.
import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { sha256 } from './trust.js';
import { readRegularFileSync } from '../kit/regular-file.js';

interface FileWatch {
  /** Watches exactly these files from now on (their current content is the reference). */
  set(files: readonly string[]): void;
  close(): void;
}

/** The folder itself if it exists, else its nearest parent that does. */
function nearestExisting(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    if (existsSync(d)) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

function digest(file: string): string {
  try {
    return sha256(readRegularFileSync(file));
  } catch {
    return 'absent';
  }
}

export function watchFiles(onChange: (files: string[]) => void, options: { debounceMs?: number; onError?: (error: Error) => void } = {}) {
  const debounceMs = options.debounceMs ?? 150;
  const seen = new Map<string, string>();
  const watchers = new Map<string, FSWatcher>();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const flush = () => {
    timer = undefined;
    const changed: string[] = [];
    for (const file of pending) {
      const now = digest(file);
      if (seen.has(file) && seen.get(file) !== now) changed.push(file);
      seen.set(file, now);
    }
    pending.clear();
    if (changed.length > 0 && !closed) onChange(changed);
  };

  const schedule = () => {
    if (pending.size > 0 && !timer) timer = setTimeout(flush, debounceMs);
  };

  // A folder that does not exist yet (no approval recorded yet: ~/.config/mcphost) is waited for
  // from its nearest existing parent; once it appears it is watched itself, and its files checked.
  const watchDir = (dir: string) => {
    if (watchers.has(dir)) return;
    const target = nearestExisting(dir);
    if (target === undefined) return;
    try {
      const watcher = watch(target, { persistent: false }, (_event, name) => {
        if (target !== dir) {
          if (nearestExisting(dir) === target) return;
          watcher.close();
          watchers.delete(dir);
          watchDir(dir);
          for (const file of seen.keys()) if (path.dirname(file) === dir) pending.add(file);
          schedule();
          return;
        }
        const names = name ? [path.join(dir, name.toString())] : [...seen.keys()].filter((f) => path.dirname(f) === dir);
        for (const file of names) if (seen.has(file)) pending.add(file);
        schedule();
      });
      watcher.on('error', (error) => options.onError?.(error));
      watchers.set(dir, watcher);
    } catch (error) {
      options.onError?.(error as Error);
    }
  };

  const handle: FileWatch = {
    set(files) {
      const wanted = new Set(files.map((f) => path.resolve(f)));
      for (const file of [...seen.keys()]) if (!wanted.has(file)) seen.delete(file);
      for (const file of wanted) if (!seen.has(file)) seen.set(file, digest(file));
      const dirs = new Set([...wanted].map((f) => path.dirname(f)));
      for (const [dir, watcher] of watchers) {
        if (dirs.has(dir)) continue;
        watcher.close();
        watchers.delete(dir);
      }
      for (const dir of dirs) watchDir(dir);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
  return handle;
}
