// Base of every command that opens the host: the global flags, the host's inputs taken from the
// process, and the one way a command fails — a message on stderr (or `{"error": {message, exit}}`
// on stdout with --json) and the exit code from exit-codes.ts.
import { Command, Flags, type Interfaces } from '@oclif/core';
import type { OpenHostOptions } from '../app/open.js';
import { installedPlugins } from './installed-plugins.js';
import { exitCodeFor, type ExitCode } from './exit-codes.js';
import { globalFlag } from './flags.js';
import { writeFailure, writeJson } from './failure-output.js';
import { hostOptions, type GlobalFlagValues } from './host-options.js';
import { LOG_LEVELS } from '../lib/logger.js';
import { redact } from '../lib/secrets.js';
import { usageErrorFromParse } from './parse-errors.js';

/** `--plugins a,b`: which backends a command works on (the same flag, wording and default everywhere). */
export function pluginsFlag(purpose = '') {
  return Flags.string({
    char: 'p',
    description: `comma-separated backends${purpose ? ` ${purpose}` : ''} (env MCPHOST_PLUGINS; default: the plugins and servers in .mcprc)`,
  });
}

// oclif's own constraint for parse outputs (FlagOutput, not exported from its index): the override
// must repeat it exactly, `any` included.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ParsedFlags = { [name: string]: any };

export abstract class HostCommand extends Command {
  static override baseFlags = {
    config: Flags.string(globalFlag('config')),
    'log-level': Flags.option({ ...globalFlag('log-level'), options: LOG_LEVELS })(),
    quiet: Flags.boolean(globalFlag('quiet')),
  };

  protected hostOptions(flags: GlobalFlagValues, extra: Partial<OpenHostOptions> = {}): OpenHostOptions {
    return hostOptions(flags, installedPlugins(this.config), extra);
  }

  /** `a, b,,c` → ['a', 'b', 'c']; nothing → undefined (so a default can apply). */
  protected splitList(value: string | undefined): string[] | undefined {
    const names = value
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return names && names.length > 0 ? names : undefined;
  }

  /** Every flag or argument the parser refuses is a usage error, said briefly, with a "did you mean". */
  protected override async parse<F extends ParsedFlags, B extends ParsedFlags, A extends ParsedFlags>(
    options?: Interfaces.Input<F, B, A>,
    argv?: string[],
  ): Promise<Interfaces.ParserOutput<F, B, A>> {
    try {
      return await super.parse(options, argv);
    } catch (error) {
      throw usageErrorFromParse(
        error,
        this.config.bin,
        this.id ?? '',
        { ...this.ctor.baseFlags, ...this.ctor.flags },
        this.ctor.enableJsonFlag,
      );
    }
  }

  /** Expected failures become one message and a documented exit code; anything else is a bug. */
  protected override async catch(error: Error & { code?: unknown }): Promise<unknown> {
    // `this.exit()` throws oclif's ExitError: let oclif exit with its code as it is.
    if (error.code === 'EEXIT') throw error;
    const exit = exitCodeFor(error);
    if (exit === undefined) return super.catch(error);
    return this.failWith(error, exit);
  }

  // What a command prints never shows a secret the config referenced (lib/secrets.ts): its lines,
  // its JSON and its errors (failure-output.ts).
  override log(message?: string, ...args: unknown[]): void {
    super.log(message === undefined ? message : redact(message), ...args);
  }

  override logToStderr(message?: string, ...args: unknown[]): void {
    super.logToStderr(message === undefined ? message : redact(message), ...args);
  }

  /** Reports a failure (failure-output.ts) and exits with its code. */
  protected failWith(error: Error, exit: ExitCode): never {
    writeFailure(error, exit, this.jsonEnabled());
    return this.exit(exit);
  }

  /**
   * For the commands whose report is their product (doctor, config, servers): the report is printed
   * either way; a failure sets the exit code and, with --json, rides along as `error`.
   */
  protected reportWith<T extends object>(report: T, failure: Error | undefined): T | (T & { error: { message: string; exit: ExitCode } }) {
    if (!failure) return report;
    const exit = exitCodeFor(failure) ?? 1;
    process.exitCode = exit;
    return { error: { message: failure.message, exit }, ...report };
  }

  /** A failure oclif reports itself (a bug) in the same compact shape as expected ones. */
  protected override toErrorJson(error: unknown): unknown {
    return { error: { message: (error as Error)?.message ?? String(error), exit: Number(process.exitCode ?? 1) } };
  }

  protected override logJson(json: unknown): void {
    writeJson(json);
  }
}
