// An MCP stdio client transport over a supervised child process. Unlike the SDK's
// StdioClientTransport it starts the child in its own process group (so a server launched through
// `npx` or a shell script is stopped together with its own children), stops it with
// stdin-close → SIGTERM → SIGKILL on short deadlines that fit the host's shutdown budget, keeps the
// tail of its stderr for error messages, and kills every group still alive when the host exits.
// What the child prints is input like any other: a line past `maxMessageBytes` (the SDK's own
// ReadBuffer threw it out of a stream handler, which ended the whole host) stops that child, which
// is then reported down and restarted like one that crashed; a line that is not a JSON-RPC message
// is reported and skipped.
import { execa, type ResultPromise } from 'execa';
import {
  parseJSONRPCMessage,
  serializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { DirectRequests } from './sdk-bypass/direct-requests.js';
import { isPlainMessage } from './sdk-bypass/message-shape.js';
import { LineChunks } from './line-chunks.js';

interface ChildSpec {
  command: string;
  args?: string[];
  /** The child's whole environment (nothing else is inherited). */
  env: Record<string, string>;
  cwd?: string;
}

export interface ChildTransportOptions extends ChildSpec {
  /** How long the child gets to exit after its stdin closes, then after SIGTERM (default 500 ms each). */
  graceMs?: number;
  /** Each stderr line (without the newline). */
  onStderr?(line: string): void;
  /** Largest message (one stdout line) accepted, in bytes (default 10 MiB, the SDK's stdio limit). */
  maxMessageBytes?: number;
}

export interface ChildExit {
  code: number | null;
  signal: string | null;
}

/** Spawn failures (ENOENT, EACCES, …) carry the command so messages can name it. */
export class SpawnError extends Error {
  readonly code: string;
  readonly command: string;
  constructor(command: string, code: string, message: string) {
    super(message);
    this.name = 'SpawnError';
    this.code = code;
    this.command = command;
  }
}

const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** Last resort: whatever happens to the host, no child process group outlives it. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
    return true;
  } catch {
    return false;
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly options: ChildTransportOptions;
  private child?: ResultPromise;
  private readonly lines: LineChunks;
  /** Why mcphost stopped the child itself (a message past the limit), for the exit's description. */
  private refused?: string;
  private readonly tail: string[] = [];
  private partialErr = '';
  private exited?: Promise<ChildExit>;
  private closing?: Promise<void>;
  exit?: ChildExit;
  /** Requests sent past the SDK client (sdk-bypass/direct-requests.ts); their answers never reach it. */
  readonly direct = new DirectRequests((message) => this.send(message));

  constructor(options: ChildTransportOptions) {
    this.options = options;
    this.lines = new LineChunks(options.maxMessageBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last stderr lines of the child (at most 20). */
  stderrTail(): string[] {
    return this.partialErr ? [...this.tail, this.partialErr] : [...this.tail];
  }

  /** "`cmd args` exited with code 1: <last stderr lines>" (or "was killed by SIGKILL"). */
  describeExit(): string {
    const exit = this.exit;
    if (this.refused) return `\`${this.commandLine()}\` ${this.refused}`;
    const how = !exit ? 'stopped' : exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const tail = this.stderrTail().slice(-3).join(' | ');
    return `\`${this.commandLine()}\` ${how}${tail ? `: ${tail}` : ''}`;
  }

  commandLine(): string {
    return [this.options.command, ...(this.options.args ?? [])].map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a)).join(' ');
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('ChildProcessTransport already started'));
    const { command, args = [], env, cwd } = this.options;
    const child = execa(command, args, {
      env,
      extendEnv: false,
      cwd,
      detached: process.platform !== 'win32',
      cleanup: false,
      buffer: false,
      reject: false,
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
      windowsHide: true,
      encoding: 'buffer',
    });
    this.child = child;
    void child.catch(() => undefined);
    // 'exit' rather than the result promise: grandchildren may keep the pipes open after the leader died.
    this.exited = new Promise<ChildExit>((resolve) => {
      child.once('exit', (code, signal) => {
        if (child.pid !== undefined && !signalGroup(child.pid, 0)) liveGroups.delete(child.pid);
        // Let its last stderr lines arrive so messages can quote them.
        const done = () => (clearTimeout(timer), resolve({ code, signal }));
        const timer = setTimeout(done, 100);
        if (child.stderr) child.stderr.once('close', done);
        else done();
      });
    });
    return new Promise<void>((resolve, reject) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        if (child.pid !== undefined) return this.onerror?.(error);
        reject(new SpawnError(command, error.code ?? 'ESPAWN', error.message));
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) {
          liveGroups.add(child.pid);
          installExitHook();
        }
        resolve();
      });
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stderr?.on('data', (chunk: Buffer) => this.receiveErr(chunk.toString('utf8')));
      child.stdin?.on('error', (error) => this.onerror?.(error));
      void this.exited!.then((exit) => {
        this.exit = exit;
        if (this.partialErr) this.pushErr(this.partialErr);
        this.partialErr = '';
        this.direct.closed();
        if (child.pid !== undefined) this.onclose?.();
      });
    });
  }

  private receive(chunk: Buffer): void {
    if (this.refused) return;
    const { lines, overflow } = this.lines.push(chunk);
    this.deliverFrom(lines, 0);
    if (overflow) this.refuse(overflow);
  }

  /**
   * Hands the lines over in order. The SDK client runs a notification's handler a microtask after
   * it gets it but a response's at once, and the response forgets the request's progress handler:
   * the last progress of a call, read in the same chunk as its result, was dropped
   * (modelcontextprotocol/typescript-sdk#2580). So after a notification the rest of the chunk waits
   * one microtask, queued behind that handler; the next chunk comes in a later task anyway.
   */
  private deliverFrom(lines: Buffer[], start: number): void {
    for (let i = start; i < lines.length; i++) {
      if (this.deliver(lines[i]!) === 'notification' && i + 1 < lines.length) {
        queueMicrotask(() => this.deliverFrom(lines, i + 1));
        return;
      }
    }
  }

  private deliver(line: Buffer): 'notification' | 'other' | undefined {
    const text = line.toString('utf8', 0, line.at(-1) === 0x0d ? line.length - 1 : line.length);
    if (text.trim() === '') return undefined;
    let message: JSONRPCMessage;
    try {
      const value: unknown = JSON.parse(text);
      message = isPlainMessage(value) ? value : parseJSONRPCMessage(value);
    } catch (error) {
      this.onerror?.(new Error(`ignored a stdout line that is not a JSON-RPC message: ${(error as Error).message.slice(0, 200)}`));
      return undefined;
    }
    try {
      if (this.direct.intercept(message)) return 'other';
      this.onmessage?.(message);
    } catch (error) {
      // Whatever a message makes the client throw stays with this server.
      this.onerror?.(new Error(`a message from the server could not be handled: ${(error as Error).message}`));
    }
    return 'method' in message && !('id' in message) ? 'notification' : 'other';
  }

  /** The child sent more than the limit without a newline: nothing it says can be trusted to be whole, so it is stopped. */
  private refuse(bytes: number): void {
    const limit = this.lines.max;
    this.refused = `sent a message larger than ${limit} bytes (at least ${bytes} bytes without a newline); mcphost refused it and stopped the server`;
    this.onerror?.(new Error(this.refused));
    void this.terminate();
  }

  private receiveErr(text: string): void {
    const parts = (this.partialErr + text).split('\n');
    this.partialErr = parts.pop() ?? '';
    for (const line of parts) this.pushErr(line.replace(/\r$/, ''));
  }

  private pushErr(line: string): void {
    if (line.trim() === '') return;
    this.tail.push(line);
    if (this.tail.length > 20) this.tail.shift();
    this.options.onStderr?.(line);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.exit) throw new Error('the server process is not running');
    if (!stdin.write(serializeMessage(message))) await new Promise<void>((resolve) => stdin.once('drain', resolve));
  }

  /** Stops the child and its process group: close stdin, then SIGTERM, then SIGKILL. A second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= this.stop(true);
    return this.closing;
  }

  /** Stops the child without the stdin grace: SIGTERM at once (a server that never answered has nothing to save). */
  terminate(): Promise<void> {
    // A gentle close may be under way already (the SDK closes its transport when a handshake fails).
    if (this.closing && this.child?.pid !== undefined && !this.exit) signalGroup(this.child.pid, 'SIGTERM');
    this.closing ??= this.stop(false);
    return this.closing;
  }

  private async stop(gently: boolean): Promise<void> {
    const child = this.child;
    if (!child) return;
    const grace = this.options.graceMs ?? 500;
    const pid = child.pid;
    const exited = this.exited!;
    // The timer is cleared once the child is gone: a pending one would hold a one-shot's exit for its rest.
    const within = (ms: number) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        void exited.then(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    if (pid === undefined) return; // it never started
    let termed = false;
    if (!this.exit && !(gently && (await within(grace)))) {
      termed = signalGroup(pid, 'SIGTERM');
      if (!(await within(grace))) {
        signalGroup(pid, 'SIGKILL');
        await within(grace);
      }
    }
    // The leader is gone; its group may still hold children that outlived it.
    if (signalGroup(pid, 0)) {
      if (!termed) signalGroup(pid, 'SIGTERM');
      for (let waited = 0; !termed && waited < grace && signalGroup(pid, 0); waited += 50) await delay(50);
      signalGroup(pid, 'SIGKILL');
    }
    liveGroups.delete(pid);
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}
