// References in config strings. `${VAR}` and `${VAR:-fallback}` (also written `${env:VAR}` and
// `${env:VAR:-fallback}`) take the environment; the fallback itself may hold references (`${A:-${B:-x}}`,
// nested up to MAX_NESTING); `$${` writes a literal `${`. `${file:PATH}` is the content of a file
// (relative to the config file's folder; `~/` is the home folder; one trailing newline dropped) and
// `${cmd:COMMAND}` what a shell command prints (`${cmd:pass show ci/token}`), both only in a file the
// user may run things from (approved, their own, or named with --config): a cloned project's file
// could otherwise read any of the user's files or run anything into a setting it then sends away.
// Every value a reference brings is remembered as a secret (lib/secrets.ts), never printed, and the
// key paths that held one are recorded with their text as written, which is what `config` shows.
// A `${` that starts no reference (`${1}`, `${A-x}`) stays as written; one that starts a reference
// without its closing `}` is an error naming the key (exit 3), never a half-expanded string.
import { execSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { readRegularFileSync } from '../kit/regular-file.js';
import { rememberSecret } from '../lib/secrets.js';
import { ConfigError } from './errors.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const MAX_NESTING = 8;
const MAX_FILE_BYTES = 1024 * 1024;
const CMD_TIMEOUT_MS = 10_000;

export interface ReferenceContext {
  /** Whether `${file:…}` and `${cmd:…}` may be used: the file is approved, the user's own, or named explicitly. */
  trusted: boolean;
  /** Where a relative `${file:…}` is read from (the config file's folder). */
  baseDir: string;
  /** Filled with the key paths whose value held a reference, and their text as written. */
  written?: Map<string, string>;
  /** What `mcphost trust` to run, for the error of a reference a file may not use yet. */
  approveHint?: string;
}

const NO_CONTEXT: ReferenceContext = { trusted: false, baseDir: process.cwd() };

export function interpolate(
  value: unknown,
  env: NodeJS.ProcessEnv,
  file?: string,
  path: string[] = [],
  context: ReferenceContext = NO_CONTEXT,
): unknown {
  if (typeof value === 'string') return interpolateString(value, env, file, path, context);
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, env, file, [...path, String(i)], context));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = interpolate(v, env, file, [...path, k], context);
    return out;
  }
  return value;
}

interface Scan {
  env: NodeJS.ProcessEnv;
  context: ReferenceContext;
  fail(message: string): ConfigError;
}

function interpolateString(
  text: string,
  env: NodeJS.ProcessEnv,
  file: string | undefined,
  at: string[],
  context: ReferenceContext,
): string {
  if (!text.includes('${')) return text;
  const fail = (message: string) => new ConfigError(`Invalid config${file ? ` in ${file}` : ''}`, [{ path: at.join('.'), message }], file);
  const out = expand(text, 0, 0, { env, context, fail }, true).out;
  if (out !== text && /\$\{(?!\$)/.test(text.replace(/\$\$\{/g, ''))) context.written?.set(at.join('.'), text);
  return out;
}

/**
 * Expands from `start` to the end of the text, or (inside a fallback, depth > 0) to the `}` that
 * closes it; answers the text and where it stopped (the closing `}`, or the end). A fallback that
 * is not used is only scanned (`use` false), as a shell does: an unset variable in it is no error,
 * and a file or command in it is neither read nor run.
 */
function expand(text: string, start: number, depth: number, scan: Scan, use: boolean): { out: string; end: number } {
  let out = '';
  let i = start;
  while (i < text.length) {
    if (text.startsWith('$${', i)) {
      out += '${';
      i += 3;
    } else if (text.startsWith('${file:', i) || text.startsWith('${cmd:', i)) {
      const kind = text.startsWith('${file:', i) ? 'file' : 'cmd';
      const bodyStart = i + kind.length + 3;
      const end = closingBrace(text, bodyStart);
      if (end === -1) throw scan.fail(`\${${kind}:… is not closed: add the } that ends it (write $\${ for a literal \${)`);
      const body = text.slice(bodyStart, end);
      out += use ? (kind === 'file' ? readFileRef(body, scan) : runCmdRef(body, scan)) : '';
      i = end + 1;
    } else if (text.startsWith('${', i)) {
      const prefixed = text.startsWith('${env:', i);
      const nameAt = i + (prefixed ? 6 : 2);
      const name = NAME.exec(text.slice(nameAt))?.[0];
      const after = nameAt + (name?.length ?? 0);
      if (name && text[after] === '}') {
        out += use ? required(name, scan) : '';
        i = after + 1;
      } else if (name && text.startsWith(':-', after)) {
        if (depth + 1 > MAX_NESTING) throw scan.fail(`\${${name}:-…} nests fallbacks more than ${MAX_NESTING} deep; simplify it`);
        const found = scan.env[name];
        const set = found !== undefined && found !== '';
        const fallback = expand(text, after + 2, depth + 1, scan, use && !set);
        if (fallback.end >= text.length)
          throw scan.fail(`\${${name}:-… is not closed: add the } that ends it (write $\${ for a literal \${)`);
        if (set && use) rememberSecret(found);
        out += set ? found : fallback.out;
        i = fallback.end + 1;
      } else {
        out += '${';
        i += 2;
      }
    } else if (depth > 0 && text[i] === '}') {
      return { out, end: i };
    } else {
      out += text[i];
      i += 1;
    }
  }
  return { out, end: i };
}

/** The `}` that closes a body starting at `from`, counting the braces inside it (`${cmd:jq '{a}' f}`). */
function closingBrace(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

function required(name: string, scan: Scan): string {
  const found = scan.env[name];
  if (found !== undefined && found !== '') {
    rememberSecret(found);
    return found;
  }
  throw scan.fail(`environment variable ${name} is not set (used as \${${name}}); set it, or write \${${name}:-fallback}`);
}

function mayRun(kind: 'file' | 'cmd', scan: Scan): void {
  if (scan.context.trusted) return;
  const what = kind === 'file' ? 'reads one of your files' : 'runs a command';
  throw scan.fail(
    `\${${kind}:…} ${what}, so it applies only in a config you approved, your own, or one named with --config` +
      (scan.context.approveHint ? `: run \`${scan.context.approveHint}\`` : ''),
  );
}

function withoutNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}

function readFileRef(ref: string, scan: Scan): string {
  mayRun('file', scan);
  const home = scan.env.HOME || scan.env.USERPROFILE || os.homedir();
  const given = ref.trim();
  if (given === '') throw scan.fail('${file:} names no file: write ${file:PATH}');
  const file = given.startsWith('~/') ? path.join(home, given.slice(2)) : path.resolve(scan.context.baseDir, given);
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw scan.fail(`\${file:${given}}: cannot read ${file} (${code === 'ENOENT' ? 'no such file' : (code ?? (error as Error).message)})`);
  }
  if (bytes.length > MAX_FILE_BYTES)
    throw scan.fail(`\${file:${given}}: ${file} holds more than ${MAX_FILE_BYTES} bytes; a secret file is small`);
  const value = withoutNewline(bytes.toString('utf8'));
  rememberSecret(value);
  return value;
}

function runCmdRef(command: string, scan: Scan): string {
  mayRun('cmd', scan);
  if (command.trim() === '') throw scan.fail('${cmd:} names no command: write ${cmd:COMMAND}');
  let output: string;
  try {
    output = execSync(command, {
      cwd: scan.context.baseDir,
      env: scan.env,
      encoding: 'utf8',
      timeout: CMD_TIMEOUT_MS,
      maxBuffer: MAX_FILE_BYTES,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (error) {
    // What the command printed is not repeated: it may be the secret, or part of it.
    const e = error as { status?: number | null; signal?: string | null; code?: string };
    const how =
      e.code === 'ETIMEDOUT' || e.signal === 'SIGTERM'
        ? `did not finish within ${CMD_TIMEOUT_MS / 1000} s`
        : e.code === 'ENOBUFS'
          ? `printed more than ${MAX_FILE_BYTES} bytes`
          : `exited with ${e.status ?? e.signal ?? e.code}`;
    throw scan.fail(`\${cmd:…} ${how}: run the command by hand to see why`);
  }
  const value = withoutNewline(output);
  rememberSecret(value);
  return value;
}
