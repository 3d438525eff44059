// Watches a few files for changes of content. Each file's folder is watched (an editor that saves
// by writing a new file and renaming it over the old one replaces the file a watch on it would
// follow), events are gathered for a moment (one save is several events), and a change is reported
// only when the content's hash differs from the last one seen, so a touch or a duplicate event
// costs a read and nothing else. A file that appears or disappears counts as a change.
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { sha256 } from './trust.js';
import { readRegularFileSync } from '../lib/regular-file.js';

interface FileWatch {
  /** Watches exactly these files from now on (their current content is the reference). */
  set(files: readonly string[]): void;
  close(): void;
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

  const watchDir = (dir: string) => {
    if (watchers.has(dir)) return;
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => {
        const names = name ? [path.join(dir, name.toString())] : [...seen.keys()].filter((f) => path.dirname(f) === dir);
        for (const file of names) if (seen.has(file)) pending.add(file);
        if (pending.size > 0 && !timer) timer = setTimeout(flush, debounceMs);
      });
      watcher.on('error', (error) => options.onError?.(error));
      watchers.set(dir, watcher);
    } catch (error) {
      // A folder that does not exist (no approvals recorded yet): nothing to watch there.
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
