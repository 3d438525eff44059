// `mcphost call <plugin> <tool> --help`: the tool's description and its generated flags; and
// `mcphost <plugin>:<command> --help`, a plugin command's, generated the same way.
import type { PublishedTool } from '../registry/registry.js';
import type { JsonSchema } from '../registry/schemas.js';
import { columns, paragraphs } from './columns.js';
import { kebab, paramShapes, typeLabel } from '../app/call/arguments.js';
import { CALL_FLAGS, COMMAND_FLAGS, type FlagSpec } from './flags.js';

/** Host flags recognised after the tool name too (all but --url, which must come first). */
const HOST_NAMES = new Set<string>((CALL_FLAGS as readonly FlagSpec[]).filter((f) => !f.first).map((f) => f.name));

export function toolHelp(
  bin: string,
  plugin: string,
  tool: PublishedTool,
  settings: string[],
  width?: number,
  switches: readonly string[] = [],
): string {
  const { usage, rows, flag, toggle } = paramsHelp(tool.inputSchema, HOST_NAMES);
  const lines = [
    paragraphs(`${tool.def.title ?? tool.publicName} — ${plugin} ${tool.def.name} (published as ${tool.publicName})`, width),
    '',
    paragraphs(tool.def.description, width),
    '',
    'USAGE',
    paragraphs(`$ ${bin} call ${plugin} ${tool.def.name} ${usage}`.trimEnd(), width, 2, 4),
  ];
  if (rows.length > 0) lines.push('', 'PARAMETERS', columns(rows, { width }));
  if (settings.length > 0)
    lines.push(
      '',
      `PLUGIN SETTINGS (set for this call)`,
      paragraphs(settings.map((s) => (switches.includes(s) ? toggle(s) : flag(s))).join(', '), width, 2),
    );
  lines.push(
    '',
    'HOST FLAGS',
    hostFlagRows(CALL_FLAGS, width),
    '',
    paragraphs(`A parameter or setting named like a host flag (${[...HOST_NAMES].join(', ')}) goes after --.`, width),
  );
  return lines.join('\n');
}

/** `mcphost <plugin>:<command> --help`: the command's summary and the flags made from its input schema. */
export function commandHelp(bin: string, id: string, summary: string, input: JsonSchema, width?: number): string {
  const hostNames = new Set<string>((COMMAND_FLAGS as readonly FlagSpec[]).map((f) => f.name));
  const { usage, rows } = paramsHelp(input, hostNames);
  const lines = [paragraphs(summary, width), '', 'USAGE', paragraphs(`$ ${bin} ${id} ${usage}`.trimEnd(), width, 2, 4)];
  if (rows.length > 0) lines.push('', 'FLAGS', columns(rows, { width }));
  lines.push('', 'HOST FLAGS', hostFlagRows(COMMAND_FLAGS, width));
  return lines.join('\n');
}

function hostFlagRows(specs: readonly FlagSpec[], width?: number): string {
  return columns(
    specs.map((f) => [`  ${f.char ? `-${f.char}, ` : ''}--${f.name}${f.value ? ` <${f.value}>` : ''}`, f.description]),
    { width },
  );
}

/**
 * One parameter per flag: a deprecated spelling kept beside the new one (maxResults beside
 * max_results) is the same `--max-results`, so only the current one is shown; both still parse.
 */
function oneFlagEach<P extends { name: string; description?: string }>(params: P[]): P[] {
  const byFlag = new Map<string, P>();
  for (const p of params) {
    const seen = byFlag.get(kebab(p.name));
    if (!seen || (/^deprecated\b/i.test(seen.description ?? '') && !/^deprecated\b/i.test(p.description ?? '')))
      byFlag.set(kebab(p.name), p);
  }
  return params.filter((p) => byFlag.get(kebab(p.name)) === p);
}

/** The usage line and the rows of a schema's parameters (a name taken by a host flag goes after `--`). */
function paramsHelp(schema: JsonSchema, hostNames: ReadonlySet<string>) {
  const params = oneFlagEach(paramShapes(schema));
  // A parameter or setting named like a host flag is only reachable after `--`.
  const flag = (name: string) => (hostNames.has(kebab(name)) ? `-- --${kebab(name)}` : `--${kebab(name)}`);
  // A switch is `--x` or `--no-x` (gh, npm and oclif show it as --[no-]x).
  const toggle = (name: string) => flag(name).replace(/--(\S+)$/, '--[no-]$1');
  const isSwitch = (p: (typeof params)[number]) => p.kinds.has('boolean') && [...p.kinds].every((k) => k === 'boolean' || k === 'null');
  const usage = params
    .map((p) => {
      const text = isSwitch(p) ? toggle(p.name) : `${flag(p.name)} <${typeLabel(p)}>`;
      return p.required ? text : `[${text}]`;
    })
    .join(' ');
  const rows = params.map((p) => {
    const notes = [
      p.required ? 'required' : undefined,
      p.default !== undefined && !p.description?.includes(`default ${JSON.stringify(p.default)}`)
        ? `default ${JSON.stringify(p.default)}`
        : undefined,
      p.kinds.has('array') ? 'repeatable' : undefined,
    ]
      .filter(Boolean)
      .join(', ');
    return [
      `  ${isSwitch(p) ? toggle(p.name) : `${flag(p.name)} <${typeLabel(p)}>`}`,
      `${p.description ?? ''}${notes ? ` (${notes})` : ''}`,
    ];
  });
  return { usage, rows, flag, toggle };
}
