// One spawned child speaking JSON lines (through execa): started, judged by its banner line, its
// stderr tail kept for messages, and stopped (stdin closed, then SIGTERM, then SIGKILL). What went
// wrong becomes a ProcessError that says how the child ended.
import type { ResultPromise } from 'execa';
import { JsonLinesPeer, LineBuffer } from './peer.js';
import { ProcessError } from './process-error.js';
import type { JsonMessage, NormalizedProcessOptions } from './process-options.js';

export interface Child {
  proc: ResultPromise;
  peer: JsonLinesPeer;
  stderr: string[];
  banner?: JsonMessage;
  /** Settles when the child has exited and its streams are drained. */
  done: Promise<void>;
  exited: boolean;
  stopping: boolean;
}

/** Called once when the child exits; `crashed` when it was ready and nobody asked it to stop. */
export type OnExit = (child: Child, crashed: boolean, how: string) => void;

function safeParse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

/** Spawns the child and resolves once its banner passed `checkReady` (within `startTimeoutMs`). */
export async function spawnChild(options: NormalizedProcessOptions, startTimeoutMs: number, onExit: OnExit): Promise<Child> {
  const { name, commandLine: command, logger } = options;
  // execa (a hundred modules) loads with the first child, not with every host that links the kit.
  const { execa } = await import('execa');
  const proc = execa(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: options.env === undefined,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    cleanup: true,
    forceKillAfterDelay: options.stopGraceMs,
  });
  return new Promise<Child>((resolve, reject) => {
    let settled = false;
    const fail = (error: ProcessError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stopChild(child, options.stopGraceMs, true);
      reject(error);
    };
    const acceptBanner = (line: string) => {
      try {
        const banner = JSON.parse(line) as JsonMessage;
        if (banner === null || typeof banner !== 'object') throw new Error('the first line is not a JSON object');
        options.checkReady(banner);
        child.banner = banner;
        settled = true;
        clearTimeout(timer);
        resolve(child);
      } catch (error) {
        const detail = safeParse(line);
        fail(
          new ProcessError('NOT_READY', `${name} did not start: ${(error as Error).message}`, {
            command,
            stderr: [...child.stderr],
            detail,
          }),
        );
      }
    };
    const child: Child = {
      proc,
      stderr: [],
      exited: false,
      stopping: false,
      done: Promise.resolve(),
      peer: new JsonLinesPeer({
        write: (line) => void proc.stdin!.write(line),
        fifo: options.fifo,
        onStray: (line, reason) => {
          if (child.banner) return logger.debug(`${name}: stray output (${reason}): ${line.slice(0, 200)}`);
          if (options.stdoutNoise && (reason === 'not JSON' || reason === 'not a JSON object')) {
            logger.debug(`${name}: ${line.slice(0, 200)}`);
            return options.onStartOutput(line);
          }
          acceptBanner(line);
        },
      }),
    };
    const timer = setTimeout(
      () =>
        fail(
          new ProcessError('START_TIMEOUT', `${name} printed no ready line within ${startTimeoutMs} ms`, {
            command,
            stderr: [...child.stderr],
          }),
        ),
      startTimeoutMs,
    );
    proc.stdout!.setEncoding('utf8');
    proc.stdout!.on('data', (chunk: string) => child.peer.receive(chunk));
    const errLines = new LineBuffer();
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (chunk: string) => {
      for (const line of errLines.push(chunk)) {
        child.stderr.push(line);
        if (child.stderr.length > options.stderrLines) child.stderr.shift();
        logger.debug(`${name}: ${line}`);
        if (!child.banner) options.onStartOutput(line);
      }
    });
    proc.stdin!.on('error', () => undefined);
    child.done = proc.then((result) => {
      child.exited = true;
      const { exitCode, signal } = result;
      const spawnFailed = result.failed && exitCode === undefined && signal === undefined;
      const how = spawnFailed ? (result.code ?? result.shortMessage ?? 'failed') : signal ? `signal ${signal}` : `code ${exitCode}`;
      const tail = child.stderr.length ? `; last stderr lines:\n${child.stderr.join('\n')}` : '';
      const info = { command, exitCode, signal, stderr: [...child.stderr] };
      const error = spawnFailed
        ? new ProcessError('SPAWN', `cannot run ${command}: ${how}`, { command, detail: result.code })
        : !child.banner && !child.stopping
          ? new ProcessError('NOT_READY', `${name} exited with ${how} before it was ready${tail}`, info)
          : new ProcessError(child.stopping ? 'CLOSED' : 'EXITED', `${name} exited with ${how}${tail}`, info);
      onExit(child, !child.stopping && child.banner !== undefined, how);
      child.peer.close(error);
      fail(error);
    });
  });
}

/** Closes stdin and waits; SIGTERM after `graceMs` if the child lingers (SIGKILL at once with `kill`). */
export async function stopChild(child: Child, graceMs: number, kill = false): Promise<void> {
  if (child.exited) return child.done;
  child.stopping = true;
  if (kill) {
    child.proc.kill('SIGKILL');
    return child.done;
  }
  child.proc.stdin?.end();
  let timer: NodeJS.Timeout | undefined;
  const lingered = await Promise.race([
    child.done.then(() => false),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs))),
  ]);
  clearTimeout(timer);
  if (lingered) child.proc.kill('SIGTERM');
  return child.done;
}
