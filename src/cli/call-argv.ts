// `mcphost call`'s argv: positionals, the host's own flags, and the rest (tool parameters and plugin
// settings), which src/app/tool-args.ts turns into arguments once the tool's schema is known.
import { UsageError, type RawFlag } from '../app/tool-args.js';

/** Flags the host itself reads in `call`; a tool parameter of the same name goes after `--`. */
export const HOST_CALL_FLAGS = new Set(['json', 'args', 'config', 'log-level', 'timeout', 'help']);

export interface SplitArgv {
  positionals: string[];
  host: Map<string, string | true>;
  flags: RawFlag[];
}

/** Separates positionals, the host's own flags, and the rest (tool parameters, plugin settings). */
export function splitArgv(argv: string[]): SplitArgv {
  const out: SplitArgv = { positionals: [], host: new Map(), flags: [] };
  let afterDashes = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--' && !afterDashes) {
      afterDashes = true;
      continue;
    }
    if (!token.startsWith('--') || token === '--') {
      if (!afterDashes && token === '-c' && i + 1 < argv.length) {
        out.host.set('config', argv[++i]);
        continue;
      }
      if (out.flags.length > 0 && out.flags[out.flags.length - 1].value === undefined) {
        out.flags[out.flags.length - 1].value = token;
        continue;
      }
      out.positionals.push(token);
      continue;
    }
    const eq = token.indexOf('=');
    const name = token.slice(2, eq === -1 ? undefined : eq);
    const inline = eq === -1 ? undefined : token.slice(eq + 1);
    if (!afterDashes && HOST_CALL_FLAGS.has(name)) {
      if (name === 'json' || name === 'help') out.host.set(name, true);
      else {
        const value = inline ?? argv[++i];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        out.host.set(name, value);
      }
      continue;
    }
    out.flags.push({ name, value: inline, text: token });
  }
  return out;
}
