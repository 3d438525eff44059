// The `.mcprc` that `mcphost init` writes: one section per chosen plugin, every top-level setting
// on its own line with its default (or, when the plugin's environment variable is set now, that
// value), the variable that overrides it, and its description; settings without a default are
// written commented out. Built from each plugin's own schema, so it fits installed plugins too.
import type * as z from 'zod';
import { objectShape } from '../kit/zod-introspect.js';
import { resolvePluginConfig } from './plugin-config.js';
import type { ResolvedConfig } from './resolve.js';

export interface StarterPlugin {
  name: string;
  description?: string;
  schema?: z.ZodType;
  env?: Record<string, string>;
}

const HEADER = `# .mcprc — written by \`mcphost init\`. Every key mcphost reads is in .mcprc.example (in mcphost's
# package); \`mcphost config\` shows each value and where it came from, \`mcphost doctor\` whether each
# backend works. Precedence: flags > environment > this file > defaults. Relative paths are resolved
# against this file's folder.
`;

export function starterConfig(plugins: readonly StarterPlugin[], resolved: ResolvedConfig): string {
  const lines = [HEADER, 'plugins:'];
  for (const plugin of plugins) {
    lines.push(...(plugin.description ? [`  # ${plugin.description}`] : []), `  ${plugin.name}:`);
    const shape = objectShape(plugin.schema);
    if (!plugin.schema || !shape || Object.keys(shape).length === 0) {
      lines[lines.length - 1] += ' {}';
      continue;
    }
    const defaults = (plugin.schema.safeParse({}).data ?? {}) as Record<string, unknown>;
    const { value, sources } = resolvePluginConfig(resolved, plugin);
    const current = value as Record<string, unknown>;
    const byKey = new Map(Object.entries(plugin.env ?? {}).filter(([k]) => !k.includes('.')));
    for (const [key, schema] of Object.entries(shape)) {
      const fromEnv = sources.get(`plugins.${plugin.name}.${key}`)?.kind === 'env';
      const shown = fromEnv ? current[key] : defaults[key];
      const description = (schema as z.ZodType).description ?? '';
      const variable = byKey.get(key) && !description.includes(byKey.get(key)!) ? `env ${byKey.get(key)}` : '';
      const note = [variable, description].filter(Boolean).join('. ');
      const comment = note ? `  # ${note}` : '';
      lines.push(shown === undefined ? `    # ${key}:${comment}` : `    ${key}: ${JSON.stringify(shown)}${comment}`);
    }
  }
  lines.push(
    '',
    '# Other MCP servers to serve next to the plugins (`mcphost servers:import` copies them from Claude Code,',
    "# Cursor or Claude Desktop); the servers of this folder's .mcp.json and .cursor/mcp.json can be called by name anyway.",
    'servers: {}',
    '',
  );
  return lines.join('\n');
}
