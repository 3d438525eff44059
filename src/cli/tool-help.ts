// `mcphost call <plugin> <tool> --help`: the tool's description and its generated flags.
import type { PublishedTool } from '../registry/registry.js';
import { columns } from './render.js';
import { kebab, paramShapes, typeLabel } from '../app/tool-args.js';

export function toolHelp(bin: string, plugin: string, tool: PublishedTool, settings: string[]): string {
  const params = paramShapes(tool.inputSchema);
  const usage = params
    .map((p) => {
      const flag = `--${kebab(p.name)}${p.kinds.has('boolean') && p.kinds.size === 1 ? '' : ` <${typeLabel(p)}>`}`;
      return p.required ? flag : `[${flag}]`;
    })
    .join(' ');
  const rows = params.map((p) => {
    const notes = [
      p.required ? 'required' : undefined,
      p.default !== undefined ? `default ${JSON.stringify(p.default)}` : undefined,
      p.kinds.has('array') ? 'repeatable' : undefined,
    ]
      .filter(Boolean)
      .join(', ');
    return [`  --${kebab(p.name)} <${typeLabel(p)}>`, `${p.description ?? ''}${notes ? ` (${notes})` : ''}`];
  });
  const lines = [
    `${tool.def.title ?? tool.publicName} — ${plugin} ${tool.def.name} (published as ${tool.publicName})`,
    '',
    tool.def.description,
    '',
    'USAGE',
    `  $ ${bin} call ${plugin} ${tool.def.name} ${usage}`.trimEnd(),
  ];
  if (rows.length > 0) lines.push('', 'PARAMETERS', columns(rows));
  if (settings.length > 0) lines.push('', `PLUGIN SETTINGS (set for this call)`, `  ${settings.map((s) => `--${kebab(s)}`).join(', ')}`);
  lines.push(
    '',
    'HOST FLAGS',
    columns([
      ['  --args <json|->', 'the whole argument object as JSON, or - to read it from stdin; flags override its keys'],
      ['  --json', 'print the raw MCP result'],
      ['  --timeout <ms>', 'abort the call after this long'],
      ['  -c, --config <file>', 'config file to use'],
    ]),
  );
  return lines.join('\n');
}
