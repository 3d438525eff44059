// The file that keeps an upstream's last lists between runs (src/kit/mcp/list-cache.ts): one per
// server, written whole or not at all, and anything that is not what it wrote is ignored.
import { describe, expect, it } from 'vitest';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { listCache } from '../../src/kit/mcp/list-cache.js';
import { tempDir } from '../helpers/tmp.js';

const lists = { lists: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }], templates: [] }, completions: true };

describe('the list cache file', () => {
  it('gives back what it saved, to the same server only', () => {
    const dir = path.join(tempDir().dir, 'cache');
    const a = listCache(dir, 'http://127.0.0.1:30069/mcp', silentLogger);
    expect(a.load()).toBeUndefined();
    a.save(lists);
    expect(listCache(dir, 'http://127.0.0.1:30069/mcp', silentLogger).load()).toEqual(lists);
    expect(listCache(dir, 'http://127.0.0.1:30070/mcp', silentLogger).load()).toBeUndefined();
    expect(readdirSync(dir)).toEqual([path.basename(a.file)]); // no temporary file left behind
  });

  it('ignores a file that is broken, from another version, or for another key', () => {
    const dir = tempDir().dir;
    const cache = listCache(dir, 'k', silentLogger);
    for (const text of [
      '{"version":1,"key":"k","lists":',
      JSON.stringify({ version: 2, key: 'k', ...lists }),
      JSON.stringify({ version: 1, key: 'other', ...lists }),
    ]) {
      writeFileSync(cache.file, text);
      expect(cache.load()).toBeUndefined();
    }
    writeFileSync(cache.file, JSON.stringify({ version: 1, key: 'k', lists: { tools: 'not a list', prompts: [{ name: 'p' }] } }));
    expect(cache.load()).toEqual({ lists: { prompts: [{ name: 'p' }] }, completions: false });
  });

  it('keeps lists too big for the file in memory only', () => {
    const dir = tempDir().dir;
    const cache = listCache(dir, 'k', silentLogger);
    cache.save({ lists: { tools: [{ name: 'x'.repeat(5 * 1024 * 1024) }] } });
    expect(cache.load()).toBeUndefined();
  });
});
