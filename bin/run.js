#!/usr/bin/env -S node --max-semi-space-size=2 --v8-pool-size=1
// `mcphost --version` is what scripts and client set-up checks run most: answered here in oclif's
// own format (Config.userAgent), it skips loading @oclif/core, which is most of the start-up.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else {
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}
