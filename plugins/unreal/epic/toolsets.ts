// Reading the answers of Epic's meta-tools. list_toolsets answers plain text, one
// `- <Toolset>: <description>` line per toolset, where a description may run over several lines and
// hold prose bullets of its own (`- GetAssetDiscoveryInfo: …` in NiagaraToolset_Assets); a toolset's
// name is a dotted identifier, so a bullet without a dot is prose (tc-imba/ue-official-mcp
// scripts/ue_mcp_skills/probe.py does the same, and checks each candidate with describe_toolset).
// describe_toolset answers JSON text {name, description, version, tools: [{name, description,
// inputSchema, outputSchema}]} (probes/5.8.0.json there), or structured content with that shape.
export interface ListedToolset {
  name: string;
  description: string;
}

interface DescribedTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

export interface DescribedToolset {
  name: string;
  description?: string;
  version?: string;
  tools: DescribedTool[];
}

const LINE = /^-\s+([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+)\s*:\s?(.*)$/;

export function textOf(result: { content?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as Array<{ type?: string; text?: unknown }>) : [];
  return blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

/** The toolsets of a list_toolsets answer, in its order, each with its whole description. */
export function parseToolsetList(text: string): ListedToolset[] {
  const out: ListedToolset[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = LINE.exec(line);
    if (m && !out.some((t) => t.name === m[1])) out.push({ name: m[1], description: m[2].trim() });
    else if (out.length > 0) out[out.length - 1].description += `\n${line}`;
  }
  for (const t of out) t.description = t.description.trim();
  return out;
}

/** A describe_toolset answer, or undefined when it is not one (an error text, a prose bullet taken for a name). */
export function parseDescription(result: {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}): DescribedToolset | undefined {
  if (result.isError) return undefined;
  let value: unknown = result.structuredContent;
  if (!value || typeof value !== 'object') {
    try {
      value = JSON.parse(textOf(result).trim());
    } catch {
      return undefined;
    }
  }
  const v = value as Partial<DescribedToolset>;
  if (!v || typeof v !== 'object' || !Array.isArray(v.tools)) return undefined;
  const tools = v.tools.filter((t): t is DescribedTool => !!t && typeof t === 'object' && typeof (t as DescribedTool).name === 'string');
  return {
    name: typeof v.name === 'string' ? v.name : '',
    ...(typeof v.description === 'string' && { description: v.description }),
    ...(typeof v.version === 'string' && { version: v.version }),
    tools,
  };
}
