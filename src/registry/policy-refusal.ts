// A tool call (or description) a client's policy does not allow, as the outcome every path answers:
// a JSON-RPC error (-32003) naming the client, the tool and the rule, and the `policy` kind for the
// audit trail and metrics.
import type { HostClient } from './clients.js';
import { POLICY_ERROR_CODE } from './policy.js';
import { errorOutcome, type CallOutcome } from './result.js';

export function policyRefusal(client: HostClient | undefined, tool: string): CallOutcome | undefined {
  const access = client?.access;
  if (!access) return undefined;
  const verdict = access.policy.tool(tool);
  if (verdict.allowed) return undefined;
  const data = { client: access.name, tool, rule: verdict.rule };
  const outcome = errorOutcome('policy', POLICY_ERROR_CODE, verdict.message, data);
  return { ...outcome, refused: { code: POLICY_ERROR_CODE, message: outcome.error!.message, data } };
}
