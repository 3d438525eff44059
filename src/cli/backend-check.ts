// After `plugins:install` or `plugins:link`: the package's backend is imported and checked as
// `serve` would load it. One that loads is announced with its tools; one that does not is removed
// again (uninstall undoes a link too) and the reason is printed, exit 2.
import type { Command } from '@oclif/core';
import { commands } from '@oclif/plugin-plugins';
import type { InstalledPackage } from '../loader/installed.js';
import { verifyInstalled } from '../loader/verify.js';
import { Exit } from './exit-codes.js';

export async function checkAddedBackend(command: Command, pkg: InstalledPackage, how: { done: string; undone: string }): Promise<void> {
  const verdict = await verifyInstalled(pkg);
  if (verdict.ok) {
    const tools = Array.isArray(verdict.backend.tools) ? verdict.backend.tools.map((t) => t.name).join(', ') : 'computed at start';
    command.log(
      `${pkg.backendName} ${verdict.backend.version} loads (tools: ${tools || 'none'}); try \`${command.config.bin} tools ${pkg.backendName}\``,
    );
    return;
  }
  await commands['plugins:uninstall'].run([pkg.packageName], command.config);
  process.stderr.write(
    `Error: ${pkg.packageName} was ${how.done}, but its backend does not load, so it was ${how.undone} again:\n` +
      `  ${verdict.reason.replace(/\n/g, '\n  ')}\n`,
  );
  command.exit(Exit.PLUGIN);
}
