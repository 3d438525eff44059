// Turning what the registry answered into what goes on the wire, for every request that may need
// the client's answers first (tools/call, prompts/get, resources/read): an input-required result
// with its requestState sealed, a refused request as a JSON-RPC error, and the way a 2026-era
// request waits for a call (finished, or paused until the client's retry answers its questions).
import { ProtocolError, ProtocolErrorCode, type HandlerResultTypeMap, type ServerContext } from '@modelcontextprotocol/server';
import type { InputRequest, InputRequiredResult } from '../backend/types.js';
import { isInputRequired } from '../backend/result.js';
import type { DetachedRun } from './paused-calls.js';
import { isSealed, type Sealed } from './request-state.js';
import type { HostServices } from './services.js';
import { callerKey } from '../registry/identity.js';
import { identityOf } from './auth/identity-info.js';

/**
 * What a tools/call, prompts/get or resources/read handler hands the SDK. The host's answers are
 * typed by the host: a backend's result (a ToolResult's resource contents may lack both text and
 * blob, which the SDK's type does not allow; a prompt or read result), and the records this module
 * and the task store build (an input-required result, a task). The SDK validates each against the
 * era's result schema before it goes out, and answers the client with an error if it does not fit.
 */
export function wire<M extends 'tools/call' | 'prompts/get' | 'resources/read'>(answer: object): HandlerResultTypeMap[M] {
  return answer as HandlerResultTypeMap[M];
}

/** The verified requestState of a retry (the seal's hook already refused a tampered one). */
export function sealedState(ctx: ServerContext): Sealed | undefined {
  const state = ctx.mcpReq.requestState();
  return isSealed(state) ? state : undefined;
}

/** The answers of a retry for `name`, or undefined on a first request. */
export function inputOf(
  ctx: ServerContext,
  sealed: Sealed | undefined,
  name: string,
): { responses: Record<string, unknown>; state?: unknown } | undefined {
  if (sealed?.k === 's' && sealed.n !== name) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `requestState was handed out for ${JSON.stringify(sealed.n)}, not this request`,
      {
        reason: 'invalid_request_state',
      },
    );
  }
  const responses = ctx.mcpReq.inputResponses;
  if (responses === undefined && sealed === undefined) return undefined;
  return { responses: responses ?? {}, ...(sealed?.k === 's' && { state: sealed.s }) };
}

/** A handler's input-required result on the wire: its state sealed and bound to `name`. */
export async function inputRequiredAnswer(
  result: InputRequiredResult,
  name: string,
  ctx: ServerContext,
  services: HostServices,
): Promise<Record<string, unknown>> {
  return {
    resultType: 'input_required',
    ...(result.inputRequests && { inputRequests: result.inputRequests }),
    ...(result.requestState !== undefined && { requestState: await services.seal.mint({ k: 's', n: name, s: result.requestState }, ctx) }),
  };
}

/** The input-required answer of a call paused for its client. */
async function pausedAnswer(asked: Record<string, InputRequest>, id: string, ctx: ServerContext, services: HostServices) {
  return { resultType: 'input_required', inputRequests: asked, requestState: await services.seal.mint({ k: 'p', id }, ctx) };
}

/**
 * Serves a 2026-era request from a detached call: its answer once done, or — when it waits for the
 * client — an input-required result naming the paused call. `finish` renders the finished value.
 */
export async function drive<T>(
  run: DetachedRun<T>,
  ctx: ServerContext,
  services: HostServices,
  finish: (value: T) => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const step = await run.step(ctx.mcpReq.signal);
  if ('asked' in step) {
    const caller = callerKey(identityOf(ctx.http?.authInfo));
    return pausedAnswer(step.asked, services.paused.pause(run as DetachedRun<unknown>, caller), ctx, services);
  }
  return finish(step.done);
}

/** Resumes the call a retry's requestState names, after delivering the answers it carries. */
export function resumed<T>(sealed: Sealed & { k: 'p' }, ctx: ServerContext, services: HostServices): DetachedRun<T> {
  const run = services.paused.take<T>(sealed.id);
  if (!run) {
    const holder = services.ids.holder(sealed.id, callerKey(identityOf(ctx.http?.authInfo)));
    const why =
      holder?.where === 'replica'
        ? `replica ${holder.replica}, which held it, cannot be reached`
        : holder?.where === 'restarted'
          ? 'mcphost restarted since'
          : 'it ended, or timed out';
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `the call this requestState continues is no longer waiting (${why}): send the request again`,
      { reason: 'invalid_request_state' },
    );
  }
  run.broker.answer(ctx.mcpReq.inputResponses);
  return run;
}

/** A refused request (RequestError) as the JSON-RPC error it stands for. */
export function refusal(refused: { code: number; message: string; data?: unknown }): ProtocolError {
  return new ProtocolError(refused.code, refused.message, refused.data);
}

/** Prompts and resources: an input-required value sealed, anything else as it is. */
export async function valueAnswer(
  value: unknown,
  name: string,
  ctx: ServerContext,
  services: HostServices,
): Promise<Record<string, unknown>> {
  return isInputRequired(value) ? inputRequiredAnswer(value, name, ctx, services) : (value as Record<string, unknown>);
}
