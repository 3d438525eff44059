// The host's inputs taken from the process, for a command run by oclif (host-command.ts) or by
// `call`'s fast path (call-main.ts), which differ only in how they learn the installed plugins.
import type { OpenHostOptions } from '../app/open.js';
import type { HostLogLevel } from '../lib/logger.js';
import type { InstalledPackage } from '../loader/installed.js';

export interface GlobalFlagValues {
  config?: string;
  'log-level'?: HostLogLevel;
  quiet?: boolean;
}

export function hostOptions(flags: GlobalFlagValues, installed: InstalledPackage[], extra: Partial<OpenHostOptions> = {}): OpenHostOptions {
  return {
    cwd: process.cwd(),
    env: process.env,
    configFile: flags.config,
    logLevel: flags['log-level'],
    quiet: flags.quiet,
    installed,
    ...extra,
  };
}
