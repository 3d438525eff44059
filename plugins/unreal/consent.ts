// Asking the user before a tool changes the editor. Neither editor server has a consent step of
// its own (Epic's toolsets carry no annotations; a UE 6 comparison in drsnuggles8/OloEngineBase #673
// names the missing write-consent gate), and an editor change cannot be taken back through them.
// So when the client can ask its user (elicitation), mcphost asks before sending a tool that may
// change something — naming the tool and the object it touches — and sends it only on accept. An
// accept may be remembered for the rest of the client's session, for that tool.
import { ToolError, type CallContext } from '../../src/backend/index.js';

export type ConfirmSetting = 'ask' | 'never';

/**
 * Verbs that only read (the first word of 830 tool names of 5.8.0: get 283, list 48, is 20, find
 * 17, …). Whatever starts otherwise (set, add, remove, create, delete, import, execute, …) may
 * change the editor and is asked about; an unknown verb is asked about too.
 */
const READ_VERBS = new Set([
  'get',
  'list',
  'is',
  'find',
  'search',
  'has',
  'can',
  'read',
  'describe',
  'query',
  'capture',
  'screenshot',
  'validate',
  'discover',
  'inspect',
  'count',
  'wait',
]);

/** Whether a tool (its own name, `set_properties`, `ListSkills`) may change the editor. */
export function mayChange(toolName: string, annotations?: { readOnlyHint?: boolean }): boolean {
  if (annotations?.readOnlyHint === true) return false;
  const last = toolName.slice(toolName.lastIndexOf('.') + 1);
  const verb = last.split(/_|(?<=[a-z0-9])(?=[A-Z])/)[0].toLowerCase();
  return !READ_VERBS.has(verb);
}

/** The object a call is about: an `{refPath}` reference, else the first argument that is an asset or object path. */
function targetOf(args: Record<string, unknown>): string | undefined {
  const values = Object.values(args);
  for (const v of values) {
    const ref = (v as { refPath?: unknown } | null)?.refPath;
    if (typeof ref === 'string' && ref) return ref;
  }
  for (const v of values) if (typeof v === 'string' && /^\/[A-Za-z]/.test(v)) return v;
  for (const v of values) if (Array.isArray(v) && typeof v[0] === 'string' && /^\/[A-Za-z]/.test(v[0])) return v.join(', ');
  return undefined;
}

const REMEMBERED = 'unreal/consent';

/**
 * Resolves when the call may go ahead: the setting is `never`, the client cannot be asked, the tool
 * only reads, the user allowed it earlier in this session, or the user accepts now. Throws a
 * ToolError (code DECLINED) when the user declines or dismisses the question.
 */
export async function consent(
  call: CallContext,
  confirm: ConfirmSetting,
  tool: { label: string; name: string; annotations?: { readOnlyHint?: boolean } },
  args: Record<string, unknown>,
): Promise<void> {
  if (confirm === 'never' || !mayChange(tool.name, tool.annotations)) return;
  if (!call.client.capabilities.elicitation) return;
  const allowed = call.client.state(REMEMBERED, () => new Set<string>());
  if (allowed.has(tool.label)) return;
  const target = targetOf(args);
  const answer = await call.elicit({
    message: `Allow ${tool.label}${target ? ` on ${target}` : ''} in the Unreal Editor? It may change the project, and the editor's MCP server cannot undo it.`,
    requestedSchema: {
      type: 'object',
      properties: {
        remember: {
          type: 'boolean',
          title: `Allow ${tool.label} for the rest of this session`,
          default: false,
        },
      },
    },
  });
  if (answer.action !== 'accept')
    throw new ToolError(
      `${tool.label} was not sent to the Unreal Editor: the user ${answer.action === 'decline' ? 'declined' : 'dismissed the question'}${target ? ` (on ${target})` : ''}`,
      { code: 'DECLINED' },
    );
  if (answer.content?.remember === true) allowed.add(tool.label);
}
