// `${VAR}` and `${VAR:-fallback}` in config strings, the fallback itself may hold references
// (`${A:-${B:-x}}`, nested up to MAX_NESTING); `$${` writes a literal `${`. A `${` that starts no
// reference (`${1}`, `${A-x}`) stays as written; one that starts a reference without its closing
// `}` is an error naming the key (exit 3), never a half-expanded string.
import { ConfigError } from './errors.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const MAX_NESTING = 8;

export function interpolate(value: unknown, env: NodeJS.ProcessEnv, file?: string, path: string[] = []): unknown {
  if (typeof value === 'string') return interpolateString(value, env, file, path);
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, env, file, [...path, String(i)]));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = interpolate(v, env, file, [...path, k]);
    return out;
  }
  return value;
}

function interpolateString(text: string, env: NodeJS.ProcessEnv, file: string | undefined, path: string[]): string {
  if (!text.includes('${')) return text;
  const fail = (message: string) =>
    new ConfigError(`Invalid config${file ? ` in ${file}` : ''}`, [{ path: path.join('.'), message }], file);
  return expand(text, 0, 0, env, fail, true).out;
}

/**
 * Expands from `start` to the end of the text, or (inside a fallback, depth > 0) to the `}` that
 * closes it; answers the text and where it stopped (the closing `}`, or the end). A fallback that
 * is not used is only scanned (`use` false), as a shell does: an unset variable in it is no error.
 */
function expand(
  text: string,
  start: number,
  depth: number,
  env: NodeJS.ProcessEnv,
  fail: (message: string) => ConfigError,
  use: boolean,
): { out: string; end: number } {
  let out = '';
  let i = start;
  while (i < text.length) {
    if (text.startsWith('$${', i)) {
      out += '${';
      i += 3;
    } else if (text.startsWith('${', i)) {
      const name = NAME.exec(text.slice(i + 2))?.[0];
      const after = i + 2 + (name?.length ?? 0);
      if (name && text[after] === '}') {
        out += use ? required(name, env, fail) : '';
        i = after + 1;
      } else if (name && text.startsWith(':-', after)) {
        if (depth + 1 > MAX_NESTING) throw fail(`\${${name}:-…} nests fallbacks more than ${MAX_NESTING} deep; simplify it`);
        const found = env[name];
        const set = found !== undefined && found !== '';
        const fallback = expand(text, after + 2, depth + 1, env, fail, use && !set);
        if (fallback.end >= text.length) throw fail(`\${${name}:-… is not closed: add the } that ends it (write $\${ for a literal \${)`);
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

function required(name: string, env: NodeJS.ProcessEnv, fail: (message: string) => ConfigError): string {
  const found = env[name];
  if (found !== undefined && found !== '') return found;
  throw fail(`environment variable ${name} is not set (used as \${${name}}); set it, or write \${${name}:-fallback}`);
}
