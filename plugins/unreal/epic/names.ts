// Published names for the tools of Epic's toolsets. A toolset is named by its module path and class
// (`editor_toolset.toolsets.scene.SceneTools`, `EditorToolset.EditorAppToolset`), its tools by
// `<toolset>.<tool>`: up to 101 characters with dots in UE 5.8.0 (tc-imba/ue-official-mcp
// probes/5.8.0.json). The MCP spec's naming guidance (2025-11-25, "Tool names") allows 1–128
// characters of A–Z a–z 0–9 _ - .; the model APIs clients pass tools to are narrower (64 characters,
// no dots: Anthropic's and OpenAI's tool names). So a tool is `unreal_<Class>_<tool>` with only
// [A-Za-z0-9_-], at most 64 characters: 827 of the 830 tools of 5.8.0 fit as they are; a longer
// name keeps its first 50 characters and ends in `_` and 6 hex digits of a hash of the tool's full
// name, so it is the same on every run. Two toolsets of one class name (none in 5.8.0) are told
// apart by a hash of the later one's full name.
import { createHash } from 'node:crypto';

const PREFIX = 'unreal_';
const MAX = 64;

const hash = (text: string, n: number) => createHash('sha256').update(text).digest('hex').slice(0, n);
const clean = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '_');

/** The class part of a toolset's full name: `editor_toolset.toolsets.scene.SceneTools` → `SceneTools`. */
function toolsetClass(toolset: string): string {
  return clean(toolset.slice(toolset.lastIndexOf('.') + 1)) || clean(toolset);
}

/** A tool's name without its toolset (describe_toolset names tools `<toolset>.<tool>`). */
function shortToolName(toolset: string, tool: string): string {
  return tool.startsWith(`${toolset}.`) ? tool.slice(toolset.length + 1) : tool.slice(tool.lastIndexOf('.') + 1);
}

/** The plugin-local name (the host adds `unreal_`), from the toolset's short name and the tool's. */
export function flatName(toolsetShort: string, toolset: string, tool: string): string {
  const local = `${toolsetShort}_${clean(shortToolName(toolset, tool))}`;
  if (PREFIX.length + local.length <= MAX) return local;
  return `${local.slice(0, MAX - PREFIX.length - 7)}_${hash(`${toolset}.${shortToolName(toolset, tool)}`, 6)}`;
}

/**
 * The short names of toolsets, in the order they were first seen: the class name, or the class
 * name and a hash when an earlier toolset already has that class name. Given the names already
 * handed out, so a toolset keeps its name for as long as it stays registered.
 */
export function assignToolsetNames(toolsets: string[], taken: Map<string, string>): Map<string, string> {
  const used = new Set(taken.values());
  for (const name of toolsets) {
    if (taken.has(name)) continue;
    let short = toolsetClass(name);
    if (used.has(short)) short = `${short}_${hash(name, 4)}`;
    taken.set(name, short);
    used.add(short);
  }
  return taken;
}
