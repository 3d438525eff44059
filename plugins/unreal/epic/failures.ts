// Answers of Epic's Unreal MCP that arrive as ordinary (successful) text but say a tool failed.
// A forum report of driving it from Codex found that "several tool failures are returned as
// ordinary successful text responses" (forums.unrealengine.com/t/unreal-mcp-codex-issue-analysis-report/2730883),
// and Epic's own skill warns that "many tools return a status that flips between success and failure
// with no exception thrown on the wire" (EpicGames/unreal-engine-skills-for-claude-code-plugin
// skills/unreal-mcp/SKILL.md). The patterns below are the ones public sources show word for word;
// mcphost marks such an answer isError, keeping the editor's text. A tool that merely returns
// false or null (compile_blueprint, set_properties on a wrong path) cannot be told from success
// and is left alone.
import type { ToolResult } from '../../../src/backend/index.js';

export interface FailurePattern {
  id: string;
  pattern: RegExp;
  source: string;
}

export const FAILURES: FailurePattern[] = [
  {
    // ProgrammaticToolset.execute_tool_script: a script that raises "returns only a traceback with no
    // output"; "a script that raises returns the error with its traceback".
    id: 'python-traceback',
    pattern: /^Traceback \(most recent call last\):/,
    source: 'smores .claude/skills/mcp-workflow/SKILL.md; a UE 5.8 project doc ("Built-in Unreal MCP (UE 5.8)")',
  },
  {
    // CaptureViewport called with {}: "fails with `input param "captureTransform" needs a default value`".
    id: 'missing-parameter',
    pattern: /^input param "[^"]+" needs a default value/,
    source: 'gamecreater scripts/mcp_client.py ("PLUGIN QUIRKS")',
  },
  {
    // A toolset name list_toolsets no longer lists: "`Unknown toolset` → re-run list_toolsets".
    id: 'unknown-toolset',
    pattern: /^Unknown toolset\b/,
    source: 'zelari-code skill "unreal-editor" (Failure model)',
  },
];

/** The failure an answer's text shows, if any. */
export function failureOf(result: { content?: unknown; isError?: boolean }): FailurePattern | undefined {
  if (result.isError) return undefined;
  const blocks = Array.isArray(result.content) ? (result.content as Array<{ type?: string; text?: unknown }>) : [];
  const text = blocks.find((b) => b.type === 'text' && typeof b.text === 'string')?.text as string | undefined;
  if (text === undefined) return undefined;
  const trimmed = text.trimStart();
  return FAILURES.find((f) => f.pattern.test(trimmed));
}

/** The answer, marked isError when its text is a known failure; the text stays the editor's. */
export function honest<T extends { content?: unknown; isError?: boolean }>(result: T): T | ToolResult {
  const failure = failureOf(result);
  if (!failure) return result;
  return { ...(result as unknown as ToolResult), isError: true, _meta: { 'mcphost/unreal-failure': failure.id } };
}
