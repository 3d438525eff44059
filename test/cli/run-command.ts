// Runs one oclif command in-process, the way bin/run.js would run it, and captures what a user sees:
// stdout, stderr and the exit code. The command reads the working directory and the environment from
// the process, so both are swapped for the run (vitest runs each file in its own process, one test at
// a time). Much faster than a child per case; test/e2e keeps one real-binary smoke per family.
import { Config, type Command } from '@oclif/core';
import { format } from 'node:util';
import { isolatedEnv } from '../helpers/cli.js';
import { REPO } from '../helpers/paths.js';

export interface CommandRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

type CommandClass = { run(argv: string[], config: Config): Promise<unknown> } & (abstract new (...args: never[]) => Command);

export function runCommand(
  command: CommandClass,
  argv: string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<CommandRun> {
  return runInProcess(options, (config) => command.run(argv, config));
}

/** Runs `body` with an oclif config as the binary would load it, capturing output and exit code. */
export async function runInProcess(
  options: { cwd: string; env?: Record<string, string | undefined> },
  body: (config: Config) => Promise<unknown>,
): Promise<CommandRun> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = {
    cwd: process.cwd(),
    env: process.env,
    out: process.stdout.write,
    err: process.stderr.write,
    log: console.log,
    error: console.error,
    warn: console.warn,
  };
  process.chdir(options.cwd);
  process.env = (options.env ?? isolatedEnv(options.cwd)) as NodeJS.ProcessEnv;
  process.exitCode = undefined;
  const capture = (sink: string[]) => ((chunk: unknown) => (sink.push(String(chunk)), true)) as typeof process.stdout.write;
  process.stdout.write = capture(out);
  process.stderr.write = capture(err);
  console.log = (...args: unknown[]) => void out.push(`${format(...args)}\n`);
  console.error = console.warn = (...args: unknown[]) => void err.push(`${format(...args)}\n`);
  let exitCode: number;
  try {
    // Loaded inside the swapped environment: oclif reads user-installed plugins from XDG_DATA_HOME.
    await body(await Config.load(REPO));
    exitCode = Number(process.exitCode ?? 0);
  } catch (error) {
    const exit = (error as { oclif?: { exit?: number } }).oclif?.exit;
    if (exit === undefined) throw error;
    exitCode = exit;
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    console.log = saved.log;
    console.error = saved.error;
    console.warn = saved.warn;
    process.env = saved.env;
    process.chdir(saved.cwd);
    process.exitCode = undefined;
  }
  return { stdout: out.join('').replace(/\n$/, ''), stderr: err.join('').replace(/\n$/, ''), exitCode };
}
