// `mcphost call` turns a flag that names a plugin setting into that setting (`--file` for imhex).
// A tool parameter of the same name could then never be given as a flag, silently: such a plugin
// is refused when `call` loads it, naming the setting, the tools and the way out.
import { ContractError } from '../loader/contract.js';
import type { PublishedTool } from '../registry/registry.js';
import { kebab } from './tool-args.js';

export function checkSettingClashes(plugin: string, settings: string[], tools: PublishedTool[]): void {
  const byFlag = new Map(settings.map((s) => [kebab(s), s]));
  const clashes: string[] = [];
  for (const tool of tools) {
    for (const param of Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>)) {
      const setting = byFlag.get(kebab(param));
      if (setting) clashes.push(`setting ${setting} and the parameter ${param} of tool ${tool.def.name} are both --${kebab(param)}`);
    }
  }
  if (clashes.length === 0) return;
  throw new ContractError(
    `plugin ${plugin}`,
    `${clashes.join('\n')}\n(\`mcphost call\` could not tell them apart: rename the setting or the parameter)`,
  );
}
