#!/usr/bin/env node
// Part of `npm run build` (after tsc): bundles `mcphost call`'s fast path (dist/src/cli/call-main.js
// and all it imports) into one file, dist/src/cli/call.bundle.js, which bin/run.js loads. A one-shot
// call then reads one module of the host instead of ~110 of its own and ~120 of its dependencies
// (bench/startup.bench.js). Kept out of the bundle, so that each exists once in the process:
// - src/backend and src/kit, what a plugin imports (`mcphost`, `mcphost/kit`): a copy in the bundle
//   would make a plugin's ToolError another class than the host's, and `instanceof` would fail;
// - src/loader/host-modules.js, which finds the files above and its resolve hook by its own URL;
// - zod and the MCP SDK, which plugins and the kit import too; oclif, loaded only to report a bug;
//   and what cosmiconfig's loaders require only when they run (typescript alone is 9 MB).
// The bundle sits in dist/src/cli/, as deep as the modules it holds, so their `import.meta.url`
// paths (src/loader/builtins.ts: ../../plugins) still point where they did.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist/src');
const outfile = path.join(dist, 'cli/call.bundle.js');
const shared = [path.join(dist, 'backend') + path.sep, path.join(dist, 'kit') + path.sep];
const ownPath = new Set([path.join(dist, 'loader/host-modules.js'), path.join(dist, 'loader/resolve-hook.js')]);

const keepShared = {
  name: 'keep-shared-modules',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const file = path.resolve(args.resolveDir, args.path);
      if (!shared.some((dir) => file.startsWith(dir)) && !ownPath.has(file)) return undefined;
      const relative = path.relative(path.dirname(outfile), file).split(path.sep).join('/');
      return { path: relative.startsWith('.') ? relative : `./${relative}`, external: true };
    });
  },
};

// Chunks of an earlier build carry other hashes: without this they would pile up in dist.
for (const file of readdirSync(path.dirname(outfile)))
  if (/^call\.(bundle|chunk-[A-Z0-9]+)\.js(\.map)?$/.test(file)) rmSync(path.join(path.dirname(outfile), file));
const result = await build({
  entryPoints: { 'call.bundle': path.join(dist, 'cli/call-main.js') },
  outdir: path.dirname(outfile),
  // What the host imports on demand (remote-call.js for --url, the upstream backend for a mounted
  // server) stays on demand: a chunk of its own, with the kit modules and SDK it imports.
  splitting: true,
  chunkNames: 'call.chunk-[hash]',
  bundle: true,
  // jsonc-parser's `main` is a UMD build whose require() calls esbuild cannot follow: take the ESM one.
  mainFields: ['module', 'main'],
  // A chunk made of a CommonJS package offers only a default export to `await import()` (the names
  // Node would find are lost), so yaml, imported on demand by src/config/yaml.ts, is taken in its
  // ESM build (the same code; only its debug/warn logging, off at the level the host uses, differs).
  alias: { yaml: path.join(root, 'node_modules/yaml/browser/index.js') },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // cosmiconfig's loaders require these only for the config kinds that need them (TypeScript 9 MB).
  external: ['zod', 'zod/*', '@modelcontextprotocol/*', '@oclif/*', 'typescript', 'js-yaml', 'parse-json', 'import-fresh'],
  plugins: [keepShared],
  // The CommonJS dependencies bundled (yaml, cosmiconfig, …) call require() for Node's own modules.
  banner: { js: "import { createRequire as __mcphostRequire } from 'node:module'; const require = __mcphostRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
// A chunk whose entry is CommonJS offers only `default` (an ES module with just a default export,
// wrap-ansi's, is fine).
for (const [file, out] of Object.entries(result.metafile.outputs)) {
  if (out.entryPoint && result.metafile.inputs[out.entryPoint]?.format === 'cjs' && !file.endsWith('call.bundle.js'))
    throw new Error(`${file}: a CommonJS package imported with import() (its named exports would be lost); bundle its ESM build`);
}
const inputs = Object.keys(result.metafile.inputs);
if (process.env.BUNDLE_SIZES)
  for (const [f, i] of Object.entries(result.metafile.inputs)
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, 25))
    console.log(i.bytes, f);
const own = inputs.filter((f) => !f.includes('node_modules/')).length;
console.log(`bundled ${path.relative(root, outfile)}: ${own} host modules, ${inputs.length - own} of dependencies`);
