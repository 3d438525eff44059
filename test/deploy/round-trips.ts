// What the replica test drives through nginx besides plain calls: 2026-era tasks followed to their
// end with tasks/get (answered with tasks/update when they ask, cancelled when told), and
// input-required round trips answered by the client's own handlers (the SDK retries with the
// requestState). Every outcome is recorded, never thrown, so the test can print how many polls
// and round trips came out right before it asserts (and the same code measures a build without
// the routing).
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { TaskFollower, finished, type TaskState } from '../helpers/tasks.js';

/**
 * Answers elicitation and sampling as `who`: every string field of the form is `who`, every
 * boolean true, the model says "`who` was sampled". An answer that reached the wrong call shows.
 * `gate`: the handler waits for it first (a person taking their time).
 */
export function answerAs(client: Client, who: () => string, gate?: () => Promise<unknown>): void {
  client.setRequestHandler('elicitation/create', async (request) => {
    await gate?.();
    const schema = (request.params as { requestedSchema?: { properties?: Record<string, { type?: string }> } }).requestedSchema;
    const content = Object.fromEntries(
      Object.entries(schema?.properties ?? {}).map(([key, field]) => [key, field.type === 'boolean' ? true : who()]),
    );
    return { action: 'accept', content };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    await gate?.();
    return { role: 'assistant', content: { type: 'text', text: `${who()} was sampled` }, model: 'test-model', stopReason: 'endTurn' };
  });
}

export interface Followed {
  taskId: string;
  /** Every status tasks/get answered, in order. */
  seen: TaskState['status'][];
  /** Every poll, update or cancel that was refused (an "unknown task" included). */
  errors: string[];
  final?: TaskState;
}

/** Whether the statuses seen are ones a task can go through: never back from a finished one, never a second end. */
export function consistent(seen: Followed['seen']): boolean {
  const end = seen.findIndex((s) => s === 'completed' || s === 'failed' || s === 'cancelled');
  return end === -1 || seen.slice(end).every((s) => s === seen[end]);
}

/**
 * Polls a task to its end (or `deadlineMs`): `answer` is what tasks/update sends when it asks;
 * `cancel`: sends tasks/cancel once it was seen working.
 */
export async function follow(
  follower: TaskFollower,
  client: Client,
  taskId: string,
  options: { answer?: (asked: Record<string, unknown>) => Record<string, unknown>; cancel?: boolean; deadlineMs?: number } = {},
): Promise<Followed> {
  const out: Followed = { taskId, seen: [], errors: [] };
  const until = Date.now() + (options.deadlineMs ?? 30_000);
  let cancelled = false;
  let answered = false;
  while (Date.now() < until) {
    let state: TaskState | undefined;
    try {
      state = await follower.get(taskId);
      out.seen.push(state.status);
    } catch (error) {
      out.errors.push((error as Error).message);
    }
    if (state && finished(state)) {
      out.final = state;
      return out;
    }
    try {
      if (state?.status === 'working' && options.cancel && !cancelled) {
        await follower.cancel(taskId);
        cancelled = true;
      }
      const asked = (state as { inputRequests?: Record<string, unknown> } | undefined)?.inputRequests;
      if (state?.status === 'input_required' && asked && options.answer && !answered) {
        await client.request({ method: 'tasks/update', params: { taskId, inputResponses: options.answer(asked) } }, z.looseObject({}));
        answered = true;
      }
    } catch (error) {
      out.errors.push((error as Error).message);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return out;
}

export interface Round {
  tool: string;
  result?: CallToolResult;
  error?: string;
}

/** One input-required round trip (or several: the SDK retries until the call is done). */
export async function roundTrip(client: Client, tool: string, args: Record<string, unknown>): Promise<Round> {
  try {
    return { tool, result: (await client.callTool({ name: tool, arguments: args }, { timeout: 20_000 })) as CallToolResult };
  } catch (error) {
    return { tool, error: (error as Error).message };
  }
}

/** The replica a sealed requestState's paused call names (its payload is signed, not hidden). */
export function pausedOn(requestState: string): string | undefined {
  const body = requestState.slice(3, requestState.lastIndexOf('.'));
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p?: { k?: string; id?: string } };
  return payload.p?.k === 'p' ? payload.p.id?.split('.')[0] : undefined;
}

export interface LogLine {
  method: string;
  name: string;
  /** The replicas nginx tried, in order (a 421's reroute and a dead replica's fallback included). */
  upstreams: string[];
  statuses: string[];
}

/** nginx's access log (the template's `mcp` format). */
export function readAccessLog(file: string): LogLine[] {
  const parse = /method="([^"]*)" name="([^"]*)" upstream="([^"]*)" upstream_status="([^"]*)"/;
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => parse.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ method: m[1], name: m[2], upstreams: m[3].split(/, | : /), statuses: m[4].split(/, | : /) }));
}
