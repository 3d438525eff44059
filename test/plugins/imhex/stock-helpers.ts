// Shared by the stock-ImHex tests: the replica of `imhex --mcp` as a command line, and a raw
// line-level client of it (for wire details no MCP client would send, like a bad id).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BRIDGE = fileURLToPath(new URL('../../fixtures/imhex/imhex-mcp-bridge.js', import.meta.url));

/**
 * IMHEX_MCP_COMMAND for the bridge replica pointed at `port` (none: "no ImHex running").
 * `paceMs` replaces client.cpp's 100 ms sleep after each answer.
 */
export function bridgeCommand(port: number | undefined, paceMs = 0): string {
  const env = [`IMHEX_REPLICA_PACE_MS=${paceMs}`, ...(port === undefined ? [] : [`IMHEX_REPLICA_PORT=${port}`])];
  return ['env', ...env, process.execPath, BRIDGE].join(' ');
}

export interface RawBridge {
  child: ChildProcessWithoutNullStreams;
  /** Writes one line. */
  send(line: string | object): void;
  /** The next stdout line. */
  next(): Promise<string>;
  /** Resolves with the exit code and stderr once the bridge exits. */
  exited: Promise<{ code: number | null; signal: string | null; stderr: string }>;
  kill(): void;
}

export function rawBridge(port: number | undefined): RawBridge {
  const env: NodeJS.ProcessEnv = { ...process.env, IMHEX_REPLICA_PACE_MS: '0' };
  if (port === undefined) delete env.IMHEX_REPLICA_PORT;
  else env.IMHEX_REPLICA_PORT = String(port);
  const child = spawn(process.execPath, [BRIDGE], { env });
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let partial: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10)) {
      const line = Buffer.concat([...partial, chunk.subarray(0, nl)]).toString('utf8');
      partial = [];
      chunk = chunk.subarray(nl + 1);
      const wake = waiting.shift();
      if (wake) wake(line);
      else lines.push(line);
    }
    if (chunk.length) partial.push(chunk);
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return {
    child,
    send: (line) => child.stdin.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`),
    next: () => (lines.length ? Promise.resolve(lines.shift()!) : new Promise((resolve) => waiting.push(resolve))),
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}

/** Is a process with this pid alive? */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
