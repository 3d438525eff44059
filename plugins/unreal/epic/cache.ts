// The toolsets Epic's Unreal MCP had registered when its list last settled, kept in the plugin's
// cache folder: a one-shot `mcphost call` (its own process) then describes only toolsets that are
// new or whose listed description changed, instead of all of them (52 describe_toolset calls on a
// stock 5.8 editor, a third of a second to two thirds each on the game thread, as tc-imba/
// ue-official-mcp's README measured). One file per editor URL, written whole (temporary file, then
// rename); anything unreadable is ignored.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../../src/backend/index.js';
import { writeFileAtomicSync } from '../../../src/kit/index.js';
import type { DescribedToolset, ListedToolset } from './toolsets.js';

export interface Remembered {
  listed: ListedToolset[];
  described: DescribedToolset[];
}

const VERSION = 1;

export function toolsetCache(dir: string, url: string, logger: Logger) {
  const file = path.join(dir, `epic-toolsets-${createHash('sha256').update(url).digest('hex').slice(0, 16)}.json`);
  return {
    file,
    load(): Remembered | undefined {
      try {
        const value = JSON.parse(readFileSync(file, 'utf8')) as { version?: number; url?: string } & Partial<Remembered>;
        if (value.version !== VERSION || value.url !== url || !Array.isArray(value.listed) || !Array.isArray(value.described))
          return undefined;
        return { listed: value.listed, described: value.described };
      } catch {
        return undefined;
      }
    },
    save(value: Remembered): void {
      try {
        writeFileAtomicSync(file, JSON.stringify({ version: VERSION, url, savedAt: new Date().toISOString(), ...value }), { fsync: false });
      } catch (error) {
        logger.debug(`cannot write ${file}: ${(error as Error).message}`);
      }
    },
  };
}
