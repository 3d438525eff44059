// godot's views in a real browser (test/helpers/app-host), served by a real `mcphost serve
// --transport http` on Godot's own class XML (../shared/data/godot-docs, all 1012 classes): the class page and the
// search results show their tool's result (DOM text checked against it), and following a link
// or opening a result asks mcphost again from inside the view (godot_get_class, godot_get_symbol,
// godot_search), through the host.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchAppHosts, type AppHosts } from '../../helpers/app-host/index.js';
import { isolatedEnv } from '../../helpers/cli.js';
import { startHttp, type HttpServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { SHARED_DATA } from '../../helpers/paths.js';

const DOCS = path.join(SHARED_DATA, 'godot-docs/doc');

let hosts: AppHosts;
let served: HttpServer;

beforeAll(async () => {
  const tmp = tempDir('godot-views-');
  [hosts, served] = await Promise.all([
    launchAppHosts(),
    startHttp(['--plugins', 'godot'], { cwd: tmp.dir, env: isolatedEnv(tmp.dir, { GODOT_DOC_DIR: DOCS }) }),
  ]);
  // The index of the whole reference is built on the first call (cold cache: tens of seconds on a busy machine).
  const client = await served.connect();
  await client.callTool({ name: 'godot_list_classes', arguments: { limit: 1 } }, { timeout: 150_000 });
}, 180_000);

afterAll(async () => {
  await hosts?.close();
  await served?.stop();
});

interface Member {
  name: string;
  signature: string;
  description: string;
  overrides?: string;
}
interface ClassDoc {
  name: string;
  inheritanceChain: string[];
  brief: string;
  description: string;
  properties: Member[];
  methods: Member[];
  signals: Member[];
  constants: Member[];
}

/** The text a reader sees of the tools' Markdown: link labels and code without their marks. */
const plain = (md: string) =>
  md
    .replace(/\[((?:`[^`]*`|[^\]])+)\]\([^)\s]+\)/g, '$1')
    .replace(/\*\*|~~|`/g, '')
    .replace(/\*([^*\s][^*]*?)\*/g, '$1');

describe('godot views through mcphost serve', () => {
  it('get_class: the class page shows the chain, brief and every member; a class link and a member link call back', async () => {
    const host = await hosts.open(served.url);
    try {
      const { report, frame } = await host.show('godot_get_class', { name: 'CharacterBody2D' });
      const doc = report.result.structuredContent as unknown as ClassDoc;
      await expect.poll(() => frame.locator('#name').textContent()).toBe('CharacterBody2D');
      expect(await frame.locator('#inherits a').allTextContents()).toEqual(doc.inheritanceChain.slice(1));
      expect(await frame.locator('#brief').textContent()).toBe(plain(doc.brief));
      const shown = await frame
        .locator('.member')
        .evaluateAll((nodes) => nodes.map((n) => `${n.id}|${n.querySelector('h3')!.textContent}`));
      const expected = (['properties', 'methods', 'signals', 'constants'] as const).flatMap((key) =>
        doc[key]
          .filter((m) => !m.overrides)
          .map(
            (m) =>
              `${{ properties: 'property', methods: 'method', signals: 'signal', constants: 'constant' }[key]}-${m.name}|${m.signature}`,
          ),
      );
      expect(shown).toEqual(expected);
      expect(await frame.locator('#method-move_and_slide .md').textContent()).toBe(
        plain(doc.methods.find((m) => m.name === 'move_and_slide')!.description).replace(/\n+/g, ''),
      );
      await host.screenshot('godot-class', { doc: true });

      // A member of this page: no call, the member is brought into view.
      const before = (await host.viewCalls()).length;
      await frame.locator('#brief ~ .md a[data-member="move_and_slide"]').first().click();
      await expect.poll(() => frame.locator('#method-move_and_slide.focus').count()).toBe(1);
      expect((await host.viewCalls()).length).toBe(before);

      // Another class: the view asks mcphost for it.
      await frame.locator('#inherits a', { hasText: 'PhysicsBody2D' }).click();
      const call = await host.viewCall('godot_get_class');
      expect(call.arguments).toEqual({ name: 'PhysicsBody2D' });
      const parent = call.result?.structuredContent as unknown as ClassDoc;
      await expect.poll(() => frame.locator('#name').textContent()).toBe('PhysicsBody2D');
      expect(await frame.locator('#inherits a').allTextContents()).toEqual(parent.inheritanceChain.slice(1));
      expect(host.wire.filter((w) => w.method === 'tools/call' && w.name === 'godot_get_class')).toHaveLength(2);
      await frame.locator('#back').click();
      await expect.poll(() => frame.locator('#name').textContent()).toBe('CharacterBody2D');

      // A member of another class: its page is fetched and the member focused.
      await frame.locator('a[data-class="PhysicsBody2D"][data-member="move_and_collide"]').first().click();
      await host.viewCall('godot_get_class', 2);
      await expect.poll(() => frame.locator('#method-move_and_collide.focus').count()).toBe(1);
      await expect.poll(() => frame.locator('#name').textContent()).toBe('PhysicsBody2D');
    } finally {
      await host.close();
    }
  });

  it('search: the results of the text answer with their snippets; a result opens with godot_get_symbol, the box searches again (2026 era)', async () => {
    const host = await hosts.open(served.url, { era: 'modern' });
    try {
      const query = 'move a character with collisions';
      const { report, frame } = await host.show('godot_search', { query, limit: 6 });
      const hits = JSON.parse((report.result.content as Array<{ text: string }>)[0].text) as Array<{
        name: string;
        kind: string;
        snippet: string;
        score: number;
      }>;
      expect(hits).toHaveLength(6);
      await expect.poll(() => frame.locator('.hit').count()).toBe(hits.length);
      const shown = await frame.locator('.hit').evaluateAll((nodes) =>
        nodes.map((n) => ({
          name: n.querySelector('.open')!.textContent,
          kind: n.getAttribute('data-kind'),
          score: n.querySelector('.score')!.textContent,
          snippet: n.querySelector('.snippet')!.textContent,
          bold: [...n.querySelectorAll('.snippet strong')].map((b) => b.textContent),
        })),
      );
      expect(shown).toEqual(
        hits.map((h) => ({
          name: h.name,
          kind: h.kind,
          score: h.score.toFixed(2),
          snippet: plain(h.snippet),
          bold: [...h.snippet.matchAll(/\*\*(.+?)\*\*/g)].map((m) => m[1]),
        })),
      );
      await host.screenshot('godot-search', { doc: true });

      const member = hits.findIndex((h) => h.kind !== 'class');
      await frame.locator('.hit .open').nth(member).click();
      const call = await host.viewCall('godot_get_symbol');
      expect(call.arguments).toEqual({ qname: hits[member].name });
      const signature = (call.result?.structuredContent as { signature: string }).signature;
      await expect.poll(() => frame.locator('.hit').nth(member).locator('.detail pre').textContent()).toBe(signature);

      await frame.locator('#query').fill('signal emitted when a timer reaches zero');
      await frame.locator('#again button').click();
      const again = await host.viewCall('godot_search');
      expect(again.arguments).toEqual({ query: 'signal emitted when a timer reaches zero', limit: 6 });
      const next = JSON.parse((again.result?.content as Array<{ text: string }>)[0].text) as Array<{ name: string }>;
      await expect.poll(() => frame.locator('.hit .open').allTextContents()).toEqual(next.map((h) => h.name));
      expect(next.map((h) => h.name)).toContain('Timer.timeout');
    } finally {
      await host.close();
    }
  });
});
