// A tool call as a task: no request is open to carry a handler's `inputRequired(…)` to the client,
// so its questions go to the task's broker (the client reads them with tasks/get and answers with
// tasks/update) and the handler is called again with the answers — what a 2025-era session gets
// from the SDK, for the same write-once handlers.
import type { ClientChannel, InputBroker } from '../../registry/asks.js';
import type { CallOutcome } from '../../registry/result.js';
import { errorOutcome } from '../../registry/result.js';
import type { TaskEnd } from './store.js';

const MAX_ROUNDS = 8;

/** Goes on from `first` (an outcome that asked for input) until the handler finishes. */
export async function runToEnd(
  first: CallOutcome,
  invoke: (channel: ClientChannel) => Promise<CallOutcome>,
  channel: ClientChannel,
  broker: InputBroker,
  signal: AbortSignal,
): Promise<CallOutcome> {
  let outcome = first;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (!outcome.inputRequired) return outcome;
    const asked = Object.entries(outcome.inputRequired.inputRequests ?? {});
    const answers = await Promise.all(asked.map(async ([key, request]) => [key, await broker.ask(request, signal)] as const));
    outcome = await invoke({ ...channel, input: { responses: Object.fromEntries(answers), state: outcome.inputRequired.requestState } });
  }
  return outcome.inputRequired
    ? errorOutcome('tool_error', 'INPUT_ROUNDS', `the tool asked for input more than ${MAX_ROUNDS} times without finishing`)
    : outcome;
}

/** How a call's outcome ends its task: a tool error is still a result; a refused request is a failure. */
export function taskEnd(outcome: CallOutcome): TaskEnd {
  if (outcome.refused) return { error: outcome.refused };
  return { result: outcome.result };
}
