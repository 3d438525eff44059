// Runs the real binary on a pseudo-terminal of a given width (util-linux `script`), as a person at
// a terminal runs it; `haveScript` is false where `script` is missing, and tests using it skip.
import { execFileSync } from 'node:child_process';
import { execa } from 'execa';
import type { CliResult } from './cli.js';
import { BIN } from './paths.js';

export const haveScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const quote = (a: string) => `'${a.replaceAll("'", "'\\''")}'`;

/** stdout and stderr both reach the terminal, so `stdout` holds both, with \r\n line ends turned to \n. */
export async function runOnTty(
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined>; columns?: number },
): Promise<CliResult> {
  const command = `stty cols ${options.columns ?? 80} rows 50; ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const r = await execa('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });
  return { stdout: String(r.stdout).replaceAll('\r\n', '\n'), stderr: String(r.stderr), exitCode: r.exitCode ?? -1 };
}

/** What the terminal shows: colour escapes removed. */
// eslint-disable-next-line no-control-regex
export const visible = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

export interface TtyRun {
  /** What the terminal received so far (stdout and stderr), \r\n turned to \n. */
  output(): string;
  /** Types Ctrl-C at the terminal: its line discipline sends SIGINT to the foreground process group. */
  ctrlC(): void;
  /** Resolves with the exit code once the command ended (`script -e` returns it). */
  exited: Promise<number>;
}

/** Starts the real binary on a pseudo-terminal (as runOnTty) and leaves it running, for a test that types at it. */
export function startOnTty(args: string[], options: { cwd: string; env: Record<string, string | undefined>; columns?: number }): TtyRun {
  const command = `stty cols ${options.columns ?? 80} rows 50; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const child = execa('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    reject: false,
    stdin: 'pipe',
    timeout: 60_000,
  });
  let seen = '';
  child.stdout?.on('data', (d: Buffer) => (seen += d.toString()));
  return {
    output: () => seen.replaceAll('\r\n', '\n'),
    ctrlC: () => void child.stdin?.write('\x03'),
    exited: child.then((r) => r.exitCode ?? -1),
  };
}
