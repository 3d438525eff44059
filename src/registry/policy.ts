// What a named client may see and use: tools by their public names (allow globs, deny globs; deny
// wins), and resources and prompts by their backend — the backends it names, else those it may call
// a tool of. A refusal names the client and the rule, so whoever reads it knows what to change.
import { globMatcher } from '../kit/glob.js';

/** The rules of one client, as `http.clients.<name>` holds them. */
export interface PolicyRules {
  tools: { allow: readonly string[]; deny: readonly string[] };
  backends: { allow?: readonly string[]; deny: readonly string[] };
}

/** JSON-RPC error code of a request a client's policy refuses (implementation-defined server error range). */
export const POLICY_ERROR_CODE = -32003;

export type Verdict = { allowed: true } | { allowed: false; rule: string; message: string };

const ALLOWED: Verdict = { allowed: true };

function firstMatch(patterns: readonly string[], name: string): string | undefined {
  return patterns.find((p) => globMatcher([p])(name));
}

export class ClientPolicy {
  private readonly allowTool: (name: string) => boolean;
  private readonly denyTool: (name: string) => boolean;
  private readonly allowBackend?: (name: string) => boolean;
  private readonly denyBackend: (name: string) => boolean;

  constructor(
    readonly client: string,
    private readonly rules: PolicyRules,
  ) {
    this.allowTool = globMatcher([...rules.tools.allow]);
    this.denyTool = globMatcher([...rules.tools.deny]);
    this.allowBackend = rules.backends.allow ? globMatcher([...rules.backends.allow]) : undefined;
    this.denyBackend = globMatcher([...rules.backends.deny]);
  }

  /** Whether the client may list and call the tool published as `name`. */
  tool(name: string): Verdict {
    const where = `http.clients.${this.client}.tools`;
    const denied = this.denyTool(name) ? firstMatch(this.rules.tools.deny, name) : undefined;
    if (denied !== undefined) return this.refusal(`${where}.deny "${denied}"`, `tool ${name}`, 'denied by');
    if (!this.allowTool(name)) return this.refusal(`${where}.allow [${this.rules.tools.allow.join(', ')}]`, `tool ${name}`, 'not in');
    return ALLOWED;
  }

  /** Whether the client may read the resources and get the prompts of `backend` (`tools`: that backend's tool names). */
  backend(backend: string, tools: readonly string[]): Verdict {
    const where = `http.clients.${this.client}.backends`;
    const denied = this.denyBackend(backend) ? firstMatch(this.rules.backends.deny, backend) : undefined;
    if (denied !== undefined) return this.refusal(`${where}.deny "${denied}"`, `backend ${backend}`, 'denied by');
    if (this.allowBackend) {
      return this.allowBackend(backend)
        ? ALLOWED
        : this.refusal(`${where}.allow [${this.rules.backends.allow!.join(', ')}]`, `backend ${backend}`, 'not in');
    }
    // No backends named: those whose tools it may call (a client given godot_* reads godot's docs, not imhex's file).
    return tools.some((t) => this.tool(t).allowed)
      ? ALLOWED
      : this.refusal(`${where}.allow (unset: the backends of the tools it may call)`, `backend ${backend}`, 'not in');
  }

  private refusal(rule: string, what: string, how: string): Verdict {
    return { allowed: false, rule, message: `client ${this.client} may not use ${what}: ${how} ${rule}` };
  }
}
