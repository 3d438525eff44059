// oclif's parse errors, said the mcphost way: one line, the command, a "did you mean" for a mistyped
// flag, and where the help is — instead of oclif's message followed by the whole help text.
import { UsageError } from '../app/usage-error.js';
import { closest } from '../kit/closest.js';

interface FlagLike {
  char?: string;
}

interface ParseErrorLike {
  message?: string;
  flags?: unknown;
  args?: unknown;
}

const ANSI = new RegExp(String.raw`\u001b\[[0-9;]*m`, 'g');

export function usageErrorFromParse(error: unknown, bin: string, id: string, flags: Record<string, FlagLike>, json = false): UsageError {
  const e = (error ?? {}) as ParseErrorLike;
  const command = `${bin} ${id}`.trim();
  const see = `(see ${command} --help)`;
  const names = [...Object.keys(flags), ...(json ? ['json'] : []), 'help'];
  if (Array.isArray(e.flags) && /^Nonexistent flag/.test(e.message ?? '')) {
    return new UsageError(e.flags.map((f) => unknownFlag(String(f), command, names, see)).join('\n'));
  }
  if (Array.isArray(e.args) && /^Missing/.test(e.message ?? '')) {
    const missing = (e.args as Array<{ name: string; description?: string }>).map(
      (a) => `${a.name.toUpperCase()}${a.description ? ` (${a.description})` : ''}`,
    );
    return new UsageError(`${command} needs ${missing.join(' and ')} ${see}`);
  }
  if (Array.isArray(e.args) && /^Unexpected/.test(e.message ?? '')) {
    return new UsageError(`unexpected argument ${(e.args as unknown[]).map((a) => JSON.stringify(a)).join(', ')} for ${command} ${see}`);
  }
  const message = (e.message ?? String(error))
    .replace(ANSI, '')
    .replace(/\s*See more help with --help\s*$/, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return new UsageError(`${message}${enumHint(message)} ${see}`);
}

/** oclif's "Expected --transport=htp to be one of: stdio, http" (a flag or an argument): the closest value. */
function enumHint(message: string): string {
  const m = /^Expected (?:--[\w-]+=)?(.*) to be one of: (.+)$/.exec(message);
  if (!m) return '';
  const [near] = closest(m[1], m[2].split(/,\s*/), 1);
  return near ? `; did you mean ${near}?` : '';
}

function unknownFlag(flag: string, command: string, names: string[], see: string): string {
  const wanted = flag.replace(/^-+/, '').split('=')[0];
  const near = closest(wanted, names, 1);
  const hint = near.length ? `; did you mean --${near[0]}?` : `; its flags: ${names.map((n) => `--${n}`).join(', ')}`;
  return `unknown flag ${flag} for ${command}${hint} ${see}`;
}
