// A tool call (or description) a client's policy does not allow, or one past its limits, as the
// outcome every path answers: a JSON-RPC error naming the client, the tool and the rule (-32003), or
// the limit and the seconds to wait (-32029); the `policy` and `limit` kinds for the audit and metrics.
import type { HostClient } from './clients.js';
import { POLICY_ERROR_CODE } from './policy.js';
import { LIMIT_ERROR_CODE, type LimitRefusal } from './caller-limits.js';
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

export function limitRefusal(client: string, tool: string, refused: LimitRefusal): CallOutcome {
  const data = { client, tool, limit: refused.limit, retryAfter: refused.retryAfter };
  const outcome = errorOutcome('limit', LIMIT_ERROR_CODE, refused.message, data);
  return { ...outcome, refused: { code: LIMIT_ERROR_CODE, message: outcome.error!.message, data } };
}

/** The limit refusal of an admission, or the admitted call's release (undefined: nothing to admit). */
export function admit(client: HostClient | undefined, tool: string): { outcome: CallOutcome } | { release: () => void } | undefined {
  const access = client?.access;
  if (!access?.limits.any) return undefined;
  const admitted = access.limits.admit(tool);
  return 'refused' in admitted ? { outcome: limitRefusal(access.name, tool, admitted.refused) } : admitted;
}
