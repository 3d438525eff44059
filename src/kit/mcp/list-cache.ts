// The last lists an upstream served (tools, prompts, resources, templates), kept in a small file so
// that a restarted mcphost publishes them at once — before the server answers, or while it is down
// (its tools then answer "unavailable" instead of being unknown). One file per upstream target
// under the backend's cache folder, written atomically; anything unreadable is ignored.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../backend/types.js';
import { writeFileAtomicSync } from '../atomic-write.js';

export type ListKey = 'tools' | 'prompts' | 'resources' | 'templates';

interface CachedLists {
  lists: Partial<Record<ListKey, unknown[]>>;
  /** The server declared `completions` (template argument completion). */
  completions?: boolean;
}

/** Lists bigger than this are kept in memory only. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const VERSION = 1;

export interface ListCache {
  load(): CachedLists | undefined;
  save(value: CachedLists): void;
  readonly file: string;
}

/** `key` names the server (its URL or command line): a reconfigured server does not get another's lists. */
export function listCache(dir: string, key: string, logger: Logger): ListCache {
  const file = path.join(dir, `lists-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.json`);
  let lastWritten: string | undefined;
  return {
    file,
    load() {
      try {
        if (statSync(file).size > MAX_FILE_BYTES) return undefined;
        const parsed = JSON.parse(readFileSync(file, 'utf8')) as { version?: number; key?: string } & CachedLists;
        if (parsed.version !== VERSION || parsed.key !== key || typeof parsed.lists !== 'object' || parsed.lists === null) return undefined;
        const lists: CachedLists['lists'] = {};
        for (const k of ['tools', 'prompts', 'resources', 'templates'] as const)
          if (Array.isArray(parsed.lists[k])) lists[k] = parsed.lists[k];
        return { lists, completions: parsed.completions === true };
      } catch {
        return undefined;
      }
    },
    save(value) {
      const body = JSON.stringify(value);
      if (body === lastWritten || body.length > MAX_FILE_BYTES) return;
      const text = JSON.stringify({ version: VERSION, key, savedAt: new Date().toISOString(), ...value });
      try {
        writeFileAtomicSync(file, text, { fsync: false });
        lastWritten = body;
      } catch (error) {
        logger.debug(`cannot write ${file}: ${(error as Error).message}`);
      }
    },
  };
}
