// Epic's agent skills as MCP prompts. A project's AgentSkills (assets under /Game/Skills, made with
// the AgentSkillToolset) are instructions for an agent; the editor offers them only as tools
// (`ListSkills` → {path: description}, `GetSkills` {skillPaths} → {path: {instructions}}, in
// tc-imba/ue-official-mcp probes/5.8.0.json), so a client's prompt picker never sees them. Each
// skill is published as a prompt `skill_<asset name>` whose messages are the skill's instructions,
// read from the editor when the prompt is fetched.
import { createHash } from 'node:crypto';
import { ToolError, type Logger, type PromptDef } from '../../../src/backend/index.js';
import type { EpicCatalog } from './catalog.js';
import { textOf } from './toolsets.js';

type CallTool = (
  toolset: string,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<{ content?: unknown; isError?: boolean }>;

const SKILLS = /(^|\.)AgentSkillToolset$/;
/** A project with more skills than this is cut short (a prompt list is read whole by every client). */
const MAX_SKILLS = 500;
/** How long one ListSkills answer is reused across list rebuilds (several happen while toolsets register). */
const REUSE_MS = 5_000;

export const isSkillToolset = (name: string) => SKILLS.test(name);

/** The `returnValue` of an Epic tool's JSON answer, or undefined. */
function returnValue(result: { content?: unknown; isError?: boolean }): unknown {
  if (result.isError) return undefined;
  try {
    return (JSON.parse(textOf(result)) as { returnValue?: unknown }).returnValue;
  } catch {
    return undefined;
  }
}

/** `/Game/Skills/LevelLayout.LevelLayout` → `skill_LevelLayout`; a name two skills share gets six hex digits of the path. */
function promptNames(paths: string[]): Map<string, string> {
  const base = (p: string) =>
    `skill_${
      (p.split('/').pop() ?? p)
        .split('.')[0]
        .replace(/[^A-Za-z0-9_-]/g, '_')
        .slice(0, 48) || 'unnamed'
    }`;
  const counts = new Map<string, number>();
  for (const p of paths) counts.set(base(p), (counts.get(base(p)) ?? 0) + 1);
  const hash = (p: string) => createHash('sha256').update(p).digest('hex').slice(0, 6);
  return new Map(paths.map((p) => [p, counts.get(base(p))! > 1 ? `${base(p)}_${hash(p)}` : base(p)]));
}

export function skillPrompts(options: { catalog: () => EpicCatalog; callTool: CallTool; logger: Logger; label: string }) {
  let cached: { at: number; toolset: string; skills: Record<string, string> } | undefined;

  async function listSkills(toolset: string, signal: AbortSignal): Promise<Record<string, string>> {
    if (cached && cached.toolset === toolset && Date.now() - cached.at < REUSE_MS) return cached.skills;
    const value = returnValue(await options.callTool(toolset, 'ListSkills', {}, signal));
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('ListSkills did not answer {path: description}');
    const skills = Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .slice(0, MAX_SKILLS)
        .map(([path, description]) => [path, typeof description === 'string' ? description : '']),
    );
    cached = { at: Date.now(), toolset, skills };
    return skills;
  }

  return {
    /** A skill was created or changed: the next list asks the editor again. */
    forget() {
      cached = undefined;
    },
    async prompts(signal: AbortSignal): Promise<PromptDef[]> {
      const toolset = options.catalog().listed.find((t) => isSkillToolset(t.name))?.name;
      if (!toolset) return [];
      let skills: Record<string, string>;
      try {
        skills = await listSkills(toolset, signal);
      } catch (error) {
        options.logger.debug(`${options.label}: listing agent skills: ${(error as Error).message}`);
        return [];
      }
      const names = promptNames(Object.keys(skills));
      return Object.entries(skills).map(([path, description]) => ({
        name: names.get(path)!,
        title: path.split('/').pop()?.split('.')[0],
        description: `${description}\n\n(an AgentSkill of the Unreal project: ${path})`.trim(),
        async get(_args: unknown, call: { signal: AbortSignal }) {
          const answer = await options.callTool(toolset, 'GetSkills', { skillPaths: [path] }, call.signal);
          const details = (returnValue(answer) as Record<string, { instructions?: unknown }> | undefined)?.[path];
          if (typeof details?.instructions !== 'string')
            throw new ToolError(`${options.label}: GetSkills gave no instructions for ${path}: ${textOf(answer).slice(0, 300)}`);
          return { description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: details.instructions } }] };
        },
      }));
    },
  };
}
