// The plugins' MCP Apps view pages (see build-views.js): found, bundled with esbuild, inlined.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Every view page of every plugin: `plugins/<plugin>/ui/<view>.html`. */
export const pages = () =>
  readdirSync(path.join(root, 'plugins'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(root, 'plugins', d.name, 'ui')))
    .flatMap((d) =>
      readdirSync(path.join(root, 'plugins', d.name, 'ui'))
        .filter((f) => f.endsWith('.html'))
        .map((f) => ({ plugin: d.name, view: f.slice(0, -'.html'.length) })),
    );

// zod (4.x, which ext-apps and the SDK client use) re-exports its 40-odd message locales as one
// namespace (`z.locales`), and ext-apps imports `z` as an object, so esbuild keeps every locale:
// 258 of 650 KiB a page. A view never switches zod's language (English, which zod configures
// itself from locales/en.js), so zod's locales index is given only `en` here. Checked by
// test/views/build.test.ts, which also builds a page without this and compares the two.
const ZOD_LOCALES = /[\\/]zod[\\/]v4[\\/](classic|core)$/;
export const englishOnlyZod = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      ZOD_LOCALES.test(args.resolveDir) ? { path: path.join(args.resolveDir, '../locales/en.js'), namespace: 'zod-en' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

/** `</script` or `</style` inside inlined code would end the element early. */
const inline = (code, tag) => code.replace(new RegExp(`</${tag}`, 'gi'), `<\\/${tag}`);

/** Builds one page into dist/plugins/<plugin>/ui/<view>.html (or returns its HTML with `write: false`). */
export async function buildPage({ plugin, view }, { write = true, englishOnly = true } = {}) {
  const dir = path.join(root, 'plugins', plugin, 'ui');
  const entry = path.join(dir, `${view}.ts`);
  if (!existsSync(entry)) throw new Error(`plugins/${plugin}/ui/${view}.html has no script: expected ${view}.ts beside it`);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    outdir: 'out',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: englishOnly ? [englishOnlyZod] : [],
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'))?.text ?? '';
  const css = result.outputFiles.find((f) => f.path.endsWith('.css'))?.text ?? '';
  const page = readFileSync(path.join(dir, `${view}.html`), 'utf8');
  if (!page.includes('</head>') || !page.includes('</body>'))
    throw new Error(`plugins/${plugin}/ui/${view}.html needs a </head> and a </body>`);
  const html = page
    .replace('</head>', () => `<style>${inline(css, 'style')}</style>\n</head>`)
    .replace('</body>', () => `<script type="module">${inline(js, 'script')}</script>\n</body>`);
  const file = `dist/plugins/${plugin}/ui/${view}.html`;
  if (write) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), html);
  }
  return { file, bytes: html.length, html };
}
