// imhex's views in a real browser (test/helpers/app-host: Chromium, ext-apps' AppBridge, the SDK
// client), served by a real `mcphost serve --transport http` on a real executable (this Node
// binary): each view shows its tool's structured result (DOM text checked against it and against
// the file's bytes), and what the view calls itself (the selection, the next range, the data
// inspector, a block's bytes, a zoomed map) goes through the host to mcphost and comes back.
import { closeSync, openSync, readSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchAppHosts, type AppHost, type AppHosts } from '../../helpers/app-host/index.js';
import { startHttp, type HttpServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { writeImHexConfig } from './helpers.js';

const FILE = process.execPath;
const address = (n: number) => `0x${n.toString(16).toUpperCase().padStart(8, '0')}`;

function bytesAt(offset: number, count: number): Buffer {
  const fd = openSync(FILE, 'r');
  try {
    const buf = Buffer.alloc(count);
    return buf.subarray(0, readSync(fd, buf, 0, count, offset));
  } finally {
    closeSync(fd);
  }
}

let hosts: AppHosts;
let served: HttpServer;

beforeAll(async () => {
  const dir = tempDir('imhex-views-').dir;
  writeImHexConfig(dir, { file: FILE });
  [hosts, served] = await Promise.all([launchAppHosts(), startHttp(['--plugins', 'imhex'], { cwd: dir })]);
}, 60_000);

afterAll(async () => {
  await hosts?.close();
  await served?.stop();
});

/** The bytes a view shows, in order, with their offsets (pads left out). */
async function shownBytes(host: AppHost, selector = '.bytes .byte:not(.pad)') {
  const frame = host.page.frameLocator('#view').frameLocator('iframe');
  return frame
    .locator(selector)
    .evaluateAll((nodes) => nodes.map((n) => ({ offset: Number(n.getAttribute('data-offset')), hex: n.textContent })));
}

describe('imhex views through mcphost serve', () => {
  it('read_bytes: the hex view shows the bytes read, the client’s selection marked; next and a click on a byte call back', async () => {
    const host = await hosts.open(served.url);
    try {
      expect(host.tools.find((t) => t.name === 'imhex_read_bytes')?.resourceUri).toBe('ui://imhex/hex.html');
      await host.call('imhex_set_selection', { start_offset: 4, size: 8 });
      const { report, frame } = await host.show('imhex_read_bytes', { offset: 0, count: 64 });
      expect(report.mimeType).toBe('text/html;profile=mcp-app');
      const result = report.result.structuredContent as { offset: number; hex_data: string; bytes_read: number };
      expect(result.hex_data).toBe(bytesAt(0, 64).toString('hex'));

      await expect.poll(() => frame.locator('.bytes .byte.sel').count()).toBe(8);
      const shown = await shownBytes(host);
      expect(shown.map((b) => b.hex).join('')).toBe(result.hex_data);
      expect(shown.map((b) => b.offset)).toEqual([...Array(64).keys()]);
      expect(await frame.locator('.row .offset').allTextContents()).toEqual([0, 16, 32, 48].map(address));
      const ascii = [...bytesAt(0, 16)].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
      expect((await frame.locator('.row .ascii').first().textContent())?.trim()).toBe(ascii);
      const selected = (await shownBytes(host, '.bytes .byte.sel')).map((b) => b.offset);
      expect(selected).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
      expect((await host.viewCall('imhex_get_selection')).result?.structuredContent).toEqual({ start_offset: 4, size: 8, end_offset: 11 });
      await host.screenshot('imhex-read-bytes', { doc: true });

      await frame.locator('#next').click();
      const next = await host.viewCall('imhex_read_bytes');
      expect(next.arguments).toEqual({ offset: 64, count: 64 });
      await expect.poll(async () => (await shownBytes(host)).map((b) => b.hex).join('')).toBe(bytesAt(64, 64).toString('hex'));
      expect(host.wire.filter((w) => w.method === 'tools/call' && w.name === 'imhex_read_bytes')).toHaveLength(2);

      await frame.locator('.bytes .byte[data-offset="72"]').click();
      const info = await host.viewCall('imhex_get_offset_info');
      expect(info.arguments).toEqual({ offset: 72 });
      await expect.poll(() => frame.locator('#inspector h2').textContent()).toContain('0x00000048: u8 ');
      const u8 = (info.result?.structuredContent as { inspector: { u8: number } }).inspector.u8;
      await expect.poll(() => frame.locator('#inspector h2').textContent()).toContain(`u8 ${u8},`);
    } finally {
      await host.close();
    }
  });

  it('search: the view lists the matches of the structured result and marks the pattern in the bytes around one (2026 era)', async () => {
    const host = await hosts.open(served.url, { era: 'modern' });
    try {
      const pattern = '00 00 00 01';
      const { report, frame } = await host.show('imhex_search', { pattern, max_results: 5 });
      const result = report.result.structuredContent as { offsets: number[]; truncated?: true };
      expect(result).toMatchObject({ truncated: true });
      const offsets = result.offsets;
      expect(offsets).toHaveLength(5);
      await expect.poll(() => frame.locator('.match-chip').allTextContents()).toEqual(offsets.map(address));
      await expect.poll(() => frame.locator('#summary').textContent()).toBe('First 5 matches (more exist).');
      const marked = () => shownBytes(host, '.bytes .byte.match');
      await expect.poll(async () => (await marked()).map((b) => b.hex).join(' ')).toBe(pattern);
      expect((await marked()).map((b) => b.offset)).toEqual([0, 1, 2, 3].map((k) => offsets[0] + k));
      await host.screenshot('imhex-search', { doc: true });

      await frame.locator('.match-chip').nth(3).click();
      const call = await host.viewCall('imhex_read_bytes', 2);
      expect(call.arguments!.offset).toBeLessThanOrEqual(offsets[3]);
      await expect.poll(async () => (await marked()).map((b) => b.offset)).toEqual([0, 1, 2, 3].map((k) => offsets[3] + k));
      expect((await marked()).map((b) => b.hex).join(' ')).toBe(pattern);
    } finally {
      await host.close();
    }
  });

  it('file_map: one cell per block in its kind, a click reads the block and zoom maps it, both through mcphost', async () => {
    const host = await hosts.open(served.url);
    try {
      const { report, frame } = await host.show('imhex_file_map', { blocks: 128 }, { timeoutMs: 60_000 });
      const map = report.result.structuredContent as {
        blocks: Array<{ offset: number; size: number; kind: string; entropy: number }>;
        summary: { kinds: Record<string, number> };
      };
      await expect.poll(() => frame.locator('.grid .cell').count()).toBe(map.blocks.length);
      const kinds = await frame.locator('.grid .cell').evaluateAll((cells) => cells.map((c) => c.classList[1]));
      expect(kinds).toEqual(map.blocks.map((b) => b.kind));
      for (const [kind, n] of Object.entries(map.summary.kinds))
        await expect.poll(() => frame.locator(`.key[data-kind="${kind}"]`).textContent()).toContain(`: ${n}`);
      await host.screenshot('imhex-file-map', { doc: true });

      const pick = map.blocks.findIndex((b) => b.kind === 'text') >= 0 ? map.blocks.findIndex((b) => b.kind === 'text') : 1;
      const block = map.blocks[pick];
      await frame.locator(`.grid .cell[data-index="${pick}"]`).click();
      const read = await host.viewCall('imhex_read_bytes');
      expect(read.arguments).toEqual({ offset: block.offset, count: 256 });
      await expect.poll(async () => (await shownBytes(host)).map((b) => b.hex).join('')).toBe(bytesAt(block.offset, 256).toString('hex'));
      await expect.poll(() => frame.locator('#block h2').textContent()).toContain(`entropy ${block.entropy} bits/byte`);
      await host.screenshot('imhex-file-map-block', { doc: true });

      await frame.locator('#zoom').click();
      const zoom = await host.viewCall('imhex_file_map');
      expect(zoom.arguments).toEqual({ start_offset: block.offset, end_offset: block.offset + block.size, blocks: 64 });
      const zoomed = (zoom.result?.structuredContent as { blocks: unknown[] }).blocks.length;
      await expect.poll(() => frame.locator('.grid .cell').count()).toBe(zoomed);
      await expect.poll(() => frame.locator('#back').isVisible()).toBe(true);
    } finally {
      await host.close();
    }
  });

  it('a client that declares no MCP Apps support is given no view, and the same text and structured result', async () => {
    const plain = await hosts.open(served.url, { declareApps: false });
    const apps = await hosts.open(served.url);
    try {
      expect(plain.tools.find((t) => t.name === 'imhex_read_bytes')?.resourceUri).toBeUndefined();
      await expect(plain.show('imhex_read_bytes', { offset: 0, count: 16 })).rejects.toThrow(/imhex_read_bytes has no view/);
      const args = { offset: 0, count: 16 };
      expect(await plain.call('imhex_read_bytes', args)).toEqual(await apps.call('imhex_read_bytes', args));
    } finally {
      await Promise.all([plain.close(), apps.close()]);
    }
  });
});
