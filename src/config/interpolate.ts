// `${VAR}` and `${VAR:-fallback}` in config strings; `$${` writes a literal `${`.
import { ConfigError } from './errors.js';

const pattern = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

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
  return text.replace(pattern, (match, name: string | undefined, fallback: string | undefined) => {
    if (match === '$${') return '${';
    const found = env[name!];
    if (found !== undefined && found !== '') return found;
    if (fallback !== undefined) return fallback;
    throw new ConfigError(
      `Invalid config${file ? ` in ${file}` : ''}`,
      [
        {
          path: path.join('.'),
          message: `environment variable ${name} is not set (used as \${${name}}); set it, or write \${${name}:-fallback}`,
        },
      ],
      file,
    );
  });
}
