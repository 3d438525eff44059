#!/usr/bin/env node
// Part of `npm run build`: the plugins' MCP Apps views. Each `plugins/<plugin>/ui/<view>.html` is a
// page whose script is `<view>.ts` beside it (with the CSS it imports); esbuild bundles the script
// (ext-apps' App and what it needs) and the CSS, and both are inlined into the page, written to
// dist/plugins/<plugin>/ui/<view>.html: one self-contained file, nothing fetched when it runs (a
// host's sandbox allows no network by default). ext-apps' own examples do the same with vite and
// vite-plugin-singlefile; esbuild is already the project's bundler, and this takes well under a second.
import { buildPage, pages } from './view-pages.js';

const started = performance.now();
const built = await Promise.all(pages().map((p) => buildPage(p)));
const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
process.stdout.write(
  `built ${built.length} views in ${(performance.now() - started).toFixed(0)} ms: ${built.map((b) => `${b.file} (${kib(b.bytes)})`).join(', ')}\n`,
);
