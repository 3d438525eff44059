// The view pages `npm run build` makes (scripts/build-views.js): each one self-contained HTML file
// (its script and style inline, nothing it would fetch), shipped in the package, served by its
// plugin byte for byte as `text/html;profile=mcp-app`; and the build's one reach past a
// dependency's API (zod given only its English locale) changes nothing a view does with zod.
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { englishOnlyZod, pages } from '../../scripts/view-pages.js';
import { isolatedEnv } from '../helpers/cli.js';
import { REPO, SHARED_DATA } from '../helpers/paths.js';
import { serveInProcess } from '../helpers/in-process.js';
import { tempDir } from '../helpers/tmp.js';

const built = pages().map((p) => ({ ...p, file: path.join(REPO, 'dist/plugins', p.plugin, 'ui', `${p.view}.html`) }));

describe('view pages', () => {
  it('exist for imhex, pob and godot, each built into dist/', () => {
    expect(new Set(built.map((p) => p.plugin))).toEqual(new Set(['imhex', 'pob', 'godot']));
    for (const page of built) expect(existsSync(page.file), `${page.file} (npm run build)`).toBe(true);
  });

  it('are self-contained: one inline script and style, nothing loaded from elsewhere', () => {
    for (const page of built) {
      const html = readFileSync(page.file, 'utf8');
      const scripts = [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
      expect(scripts, page.file).toEqual(['<script type="module">']);
      expect(html, page.file).not.toMatch(/<script[^>]+\bsrc=|<link\b|<img[^>]+\bsrc="(?!data:)|@import\s|<iframe/i);
      expect(html.match(/<style>/g), page.file).toHaveLength(1);
    }
  });

  it('are in the package: `files` takes dist/, where they are built', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('dist');
  });

  it('are read through mcphost byte for byte, as text/html;profile=mcp-app with their _meta', async () => {
    const dir = tempDir('views-build-').dir;
    // Each backend starts before its first read: imhex needs its file, godot its doc folder.
    const env = isolatedEnv(dir, { IMHEX_FILE: process.execPath, GODOT_DOC_DIR: path.join(SHARED_DATA, 'godot-docs/doc') });
    const session = await serveInProcess({ cwd: dir, plugins: ['imhex', 'pob', 'godot'], env });
    try {
      for (const page of built) {
        const uri = `ui://${page.plugin}/${page.view}.html`;
        const { contents } = await session.client.readResource({ uri });
        expect(contents, uri).toHaveLength(1);
        expect(contents[0]).toMatchObject({ uri, mimeType: 'text/html;profile=mcp-app', _meta: { ui: { prefersBorder: true } } });
        expect((contents[0] as { text: string }).text === readFileSync(page.file, 'utf8'), uri).toBe(true);
      }
    } finally {
      await session.close();
    }
  });
});

describe('zod with its English locale only (the build plugin)', () => {
  const entry = path.join(REPO, 'test/views/fixtures/zod-messages.ts');
  const bundle = async (plugins: Array<typeof englishOnlyZod>) => {
    const r = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      minify: true,
      logLevel: 'silent',
      plugins,
    });
    return r.outputFiles[0].text;
  };
  const run = (code: string) => {
    const out: string[] = [];
    runInNewContext(code, { report: (s: string) => out.push(s) });
    return out;
  };

  it('gives the same messages as the whole of zod, in a much smaller bundle', async () => {
    const [whole, english] = await Promise.all([bundle([]), bundle([englishOnlyZod])]);
    const messages = run(whole);
    expect(messages.length).toBeGreaterThan(5);
    expect(run(english)).toEqual(messages);
    expect(english.length).toBeLessThan(whole.length - 200_000);
  });
});
