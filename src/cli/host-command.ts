// Base of every command that opens the host: shared flags, the host's inputs taken from the
// process, and one mapping from failures to exit codes.
import { Command, Flags } from '@oclif/core';
import type { LogLevel } from '../backend/types.js';
import { isToolError } from '../backend/errors.js';
import { ConfigError } from '../config/errors.js';
import { openConfig, openHost, type OpenHostOptions } from '../app/open.js';
import { ContractError } from '../loader/contract.js';
import { PluginLoadError } from '../loader/errors.js';
import { installedPackages, type OclifPluginLike } from '../loader/installed.js';
import { RegistryError, UnknownNameError } from '../registry/errors.js';
import { Exit } from './exit-codes.js';

/** `--plugins a,b`: which backends a command works on (the same flag, wording and default everywhere). */
export function pluginsFlag(purpose = '') {
  return Flags.string({
    char: 'p',
    description: `comma-separated backends${purpose ? ` ${purpose}` : ''} (env MCPHOST_PLUGINS; default: the plugins and servers in .mcprc)`,
  });
}

export abstract class HostCommand extends Command {
  static override baseFlags = {
    config: Flags.string({
      char: 'c',
      description: 'config file to use instead of searching for .mcprc (env MCPHOST_CONFIG)',
      helpGroup: 'GLOBAL',
    }),
    'log-level': Flags.option({
      options: ['error', 'warn', 'info', 'debug'] as const,
      description: 'stderr log level (env MCPHOST_LOG_LEVEL)',
      helpGroup: 'GLOBAL',
    })(),
  };

  protected hostOptions(flags: { config?: string; 'log-level'?: LogLevel }, extra: Partial<OpenHostOptions> = {}): OpenHostOptions {
    return {
      cwd: process.cwd(),
      env: process.env,
      configFile: flags.config,
      logLevel: flags['log-level'],
      installed: installedPackages(this.config.getPluginsList() as unknown as OclifPluginLike[]),
      ...extra,
    };
  }

  protected openHost(options: OpenHostOptions) {
    return openHost(options);
  }

  protected openConfig(options: OpenHostOptions) {
    return openConfig(options);
  }

  protected splitPlugins(value: string | undefined): string[] | undefined {
    const names = value
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return names && names.length > 0 ? names : undefined;
  }

  /**
   * Prints an expected failure to stderr as it is (oclif's own `error` wraps lines at 80 columns,
   * which breaks paths and key paths apart) and exits with its documented code.
   */
  protected fail(message: string, exit: number): never {
    process.stderr.write(`Error: ${message}\n`);
    return this.exit(exit);
  }

  /** Expected failures become one message and a documented exit code; anything else is a bug. */
  protected override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    // `this.exit()` (and so `fail`) throws oclif's ExitError: let oclif exit with its code as it is.
    if ((error as { code?: unknown }).code === 'EEXIT') throw error;
    const exit = exitCodeFor(error);
    if (exit === undefined) return super.catch(error);
    if (this.jsonEnabled()) {
      process.exitCode = exit;
      this.logJson({ error: { message: error.message, exit } });
      return;
    }
    return this.fail(error.message, exit);
  }
}

export function exitCodeFor(error: unknown): number | undefined {
  if (error instanceof ConfigError) return Exit.CONFIG;
  if (error instanceof PluginLoadError || error instanceof ContractError || error instanceof RegistryError) return Exit.PLUGIN;
  if (error instanceof UnknownNameError) return error.kind === 'plugin' ? Exit.PLUGIN : Exit.USAGE;
  if (isToolError(error) && error.code === 'UNAVAILABLE') return Exit.UNAVAILABLE;
  return undefined;
}
