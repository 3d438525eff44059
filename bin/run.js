#!/usr/bin/env -S node --max-semi-space-size=2 --v8-pool-size=1
// Two fast paths skip loading @oclif/core, which is most of a one-shot's start-up:
// `mcphost --version`, which scripts and client set-up checks run most, answered here in oclif's own
// format (Config.userAgent); and `mcphost call` (but not its --help), which src/cli/call-main.ts runs
// as the oclif command would.
const argv = process.argv.slice(2);
const beforeDashes = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else if (!(argv[0] === 'call' && !beforeDashes.includes('--help') && !beforeDashes.includes('-h') && (await callFast(argv.slice(1))))) {
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}

async function callFast(args) {
  const { main } = await import('../dist/src/cli/call.bundle.js');
  return main(args);
}
