// Smoke test of the real binary: `mcphost serve --plugins godot` over stdio, spoken to by the
// official SDK client. The first start builds the index with progress and saves it in the user's
// cache folder (nothing in the working directory); the second start loads it. Tool-level behaviour
// is tested in-process (tools.test.ts, host.test.ts).
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../helpers/cli.ts';
import { connectStdio, type StdioSession } from '../../helpers/mcp.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { defaultIndexPath } from '../../../plugins/godot/config.ts';
import { DOC4 } from './helpers.ts';

const tmp = tempDir('godot-stdio-');
const cwd = path.join(tmp.dir, 'project');
mkdirSync(cwd);
const cache = path.join(tmp.dir, 'cache');
const env = isolatedEnv(path.join(tmp.dir, 'home'), { GODOT_DOC_DIR: DOC4, XDG_CACHE_HOME: cache });
const sessions: StdioSession[] = [];
afterAll(async () => {
  for (const s of sessions) await s.close();
});

describe('mcphost serve --plugins godot over stdio (real binary)', () => {
  it('builds the index on the first call with progress, keeps it in the cache folder, and loads it on the next start', async () => {
    const first = await connectStdio(['--plugins', 'godot'], { cwd, env });
    sessions.push(first);
    const { tools } = await first.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'godot_check_api',
      'godot_get_class',
      'godot_get_symbol',
      'godot_list_classes',
      'godot_search',
    ]);
    const progress: Array<{ message?: string }> = [];
    const found = (await first.client.callTool(
      { name: 'godot_search', arguments: { query: 'timer timeout signal', limit: 3 } },
      { onprogress: (p) => progress.push(p) },
    )) as { content: Array<{ text: string }> };
    expect(JSON.parse(found.content[0].text)[0]).toMatchObject({ name: 'Timer.timeout', kind: 'signal' });
    expect(progress.some((p) => /parsing Godot class XML/.test(p.message ?? ''))).toBe(true);
    const index = defaultIndexPath(path.join(cache, 'mcphost/godot'), DOC4);
    expect(existsSync(index)).toBe(true);
    expect(readdirSync(cwd)).toEqual([]);

    const second = await connectStdio(['--plugins', 'godot'], { cwd, env, era: 'modern' });
    sessions.push(second);
    const seen: Array<{ message?: string }> = [];
    const r = (await second.client.callTool(
      { name: 'godot_get_symbol', arguments: { qname: 'CharacterBody2D.add_child' } },
      { onprogress: (p) => seen.push(p) },
    )) as { structuredContent: Record<string, unknown> };
    expect(r.structuredContent).toMatchObject({ kind: 'method', className: 'Node', arguments: expect.any(Array) });
    expect(seen.filter((p) => /parsing/.test(p.message ?? ''))).toEqual([]);
  });
});
