// Runs the real CLI binary (bin/run.js → dist) as a child process.
import { execa, type Options } from 'execa';
import { BIN } from './paths.js';

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Environment for a child that must not see the developer's own config or installed plugins. */
export function isolatedEnv(home: string, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: `${home}/.local/share`,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_CACHE_HOME: `${home}/.cache`,
  };
  for (const key of Object.keys(env)) if (key.startsWith('MCPHOST_')) delete env[key];
  return { ...env, ...extra };
}

export async function runCli(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; input?: string; timeout?: number },
): Promise<CliResult> {
  const result = await execa(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: options.env ?? isolatedEnv(options.cwd),
    extendEnv: false,
    input: options.input,
    reject: false,
    timeout: options.timeout ?? 20_000,
    stripFinalNewline: true,
  } as Options);
  return { stdout: String(result.stdout), stderr: String(result.stderr), exitCode: result.exitCode ?? -1 };
}

/** `mcphost trust` through the binary, as a user runs it before using a project's .mcprc that imports modules or starts commands. */
export async function trustCli(cwd: string, env: Record<string, string | undefined> = isolatedEnv(cwd)): Promise<CliResult> {
  const r = await runCli(['trust'], { cwd, env });
  if (r.exitCode !== 0) throw new Error(`mcphost trust failed (${r.exitCode}): ${r.stderr}`);
  return r;
}
