// tools/call. A 2025-era request runs the call and answers (the client is asked directly, and a
// handler's `inputRequired(…)` is fulfilled by the SDK's shim, which calls this handler again). A
// 2026-era request runs it detached: it is answered when the call ends, with an input-required
// result while the call waits for the client (paused-calls.ts), or — for a task-capable tool and a
// client that declared the tasks extension — with a task once the call outlasts a moment.
import type { HandlerResultTypeMap, Server, ServerContext } from '@modelcontextprotocol/server';
import type { ProgressUpdate } from '../backend/types.js';
import type { HostClient } from '../registry/clients.js';
import { callerKey } from '../registry/identity.js';
import { clampTimeout } from '../registry/limits.js';
import type { PublishedTool, Registry } from '../registry/registry.js';
import type { CallOutcome } from '../registry/result.js';
import type { ClientChannel } from '../registry/asks.js';
import { drive, inputOf, inputRequiredAnswer, refusal, resumed, sealedState, wire } from './answers.js';
import { channelFor, isModern, type SessionLogLevel } from './channel.js';
import { DetachedRun } from './paused-calls.js';
import type { HostServices } from './services.js';
import { declaresTasks, tasksRequired } from './tasks/handlers.js';
import { runToEnd, taskEnd } from './tasks/run.js';
import type { ToolSurface } from '../discover/surface.js';
import { traceOf } from './trace.js';

/** `_meta` key a client may set on tools/call to override the tool's timeout (milliseconds). */
const TIMEOUT_META_KEY = 'mcphost/timeoutMs';

/** How long a task-capable call may take and still be answered directly. */
const IMMEDIATE_MS = 250;

/** How long a client gets to answer the progress-confirming ping before the response goes out anyway. */
const CONFIRM_PROGRESS_MS = 1_000;

export interface ToolCallOptions {
  client: HostClient;
  services: HostServices;
  session: SessionLogLevel;
  /** After a call that sent progress, ping the client and answer only once it replied (2025-era stdio). */
  confirmProgress?: boolean;
  /** The listed tools (flat, or discover mode's meta-tools, which it answers itself). */
  surface: ToolSurface;
  toProtocolError(error: unknown): Error;
}

export function installToolCalls(server: Server, registry: Registry, options: ToolCallOptions): void {
  const { services } = options;

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args, _meta } = request.params;
    const sealed = sealedState(ctx);
    // Progress goes to whichever request is waiting on the call now (a task's goes to its status).
    const sink = progressSink(ctx, _meta?.progressToken);
    if (sealed?.k === 'p') {
      const run = resumed<CallOutcome>(sealed, ctx, services);
      run.onProgress = sink.send;
      return wire<'tools/call'>(await drive(run, ctx, services, (o) => answer(o, name, ctx)));
    }
    const channel = channelFor(server, ctx, options.session, inputOf(ctx, sealed, name));
    const call = callSettings(ctx, _meta, options.client);
    // Discover mode's meta-tools answer at once (a call through mcphost_call_tool runs as a direct one).
    if (options.surface.isMeta(name)) {
      const outcome = await options.surface.call(name, args ?? {}, { ...call, signal: ctx.mcpReq.signal, channel, onProgress: sink.send });
      await sink.flush();
      return await answer(outcome, name, ctx);
    }
    let tool: PublishedTool;
    try {
      tool = await registry.findTool(name, options.client);
    } catch (error) {
      throw options.toProtocolError(error);
    }

    if (!isModern(server)) {
      const outcome = await legacyCall(registry, tool, args, call, channel, ctx, sink, options.confirmProgress);
      return await answer(outcome, name, ctx);
    }

    const tasks = declaresTasks(channel.capabilities);
    if (tool.def.task === 'required' && !tasks) throw tasksRequired(`tool ${name}`);
    const asTask = tool.def.task !== undefined && tasks && services.tasks.hasRoom();
    // Set once the call became a task (read by the run's closure, which outlives this handler).
    const task: { id?: string } = {};
    const run = new DetachedRun<CallOutcome>((signal, broker, self) => {
      const invoke = (ch: ClientChannel) =>
        registry.invoke(tool, args ?? {}, { ...call, signal, channel: ch, broker, onProgress: (p) => self.onProgress?.(p) });
      // A handler's first `inputRequired(…)` is answered as it is; only once the call is a task
      // (no request left to carry it) do its questions go through the broker.
      return invoke(channel).then((first) => (first.inputRequired && task.id ? runToEnd(first, invoke, channel, broker, signal) : first));
    }, options.client.hold());
    // The last progress becomes the task's status if the call turns into one.
    let last: ProgressUpdate | undefined;
    run.onProgress = (p) => {
      last = { ...p, message: p.message ?? last?.message };
      sink.send(p);
    };
    if (!asTask) return wire<'tools/call'>(await drive(run, ctx, services, (o) => answer(o, name, ctx)));

    const early = await Promise.race([
      run.outcome.then((o) => ({ done: o })),
      run.broker.whenAsked().then(() => 'asked' as const),
      new Promise<'later'>((resolve) => setTimeout(() => resolve('later'), IMMEDIATE_MS)),
    ]);
    if (typeof early === 'object') return await answer(early.done, name, ctx);
    const created = services.tasks.start(
      { outcome: run.outcome.then(taskEnd), broker: run.broker, controller: run.controller },
      callerKey(options.client.identity),
    );
    task.id = created.taskId as string;
    services.tasks.progress(task.id, last);
    run.onProgress = (p) => services.tasks.progress(created.taskId as string, p);
    return wire<'tools/call'>(created);
  });

  /** The wire answer of a finished call. */
  async function answer(outcome: CallOutcome, name: string, ctx: ServerContext): Promise<HandlerResultTypeMap['tools/call']> {
    if (outcome.refused) throw refusal(outcome.refused);
    if (outcome.inputRequired) return wire<'tools/call'>(await inputRequiredAnswer(outcome.inputRequired, name, ctx, services));
    if (outcome.remoteTask)
      return wire<'tools/call'>(services.tasks.relay(outcome.remoteTask, outcome.remoteTask.created, callerKey(options.client.identity)));
    return wire<'tools/call'>(outcome.result);
  }
}

/** The settings a tools/call request carries: its timeout override and trace context. */
export function callSettings(ctx: ServerContext, meta: unknown, client: HostClient) {
  const requested = Number((ctx.mcpReq._meta as Record<string, unknown> | undefined)?.[TIMEOUT_META_KEY]);
  return {
    client,
    timeoutMs: Number.isFinite(requested) && requested > 0 ? clampTimeout(requested) : undefined,
    trace: traceOf(ctx.mcpReq._meta) ?? traceOf(meta),
  };
}

/** A 2025-era call: run, its progress written, then (stdio) the progress-confirming ping. Shared with the fast path. */
export async function legacyCall(
  registry: Registry,
  tool: PublishedTool,
  args: Record<string, unknown> | undefined,
  call: ReturnType<typeof callSettings>,
  channel: ClientChannel,
  ctx: ServerContext,
  sink: ReturnType<typeof progressSink>,
  confirmProgress: boolean | undefined,
): Promise<CallOutcome> {
  // One literal, no spread: a relayed call's options are built on every call.
  const outcome = await registry.invoke(tool, args ?? {}, {
    client: call.client,
    timeoutMs: call.timeoutMs,
    trace: call.trace,
    channel,
    signal: ctx.mcpReq.signal,
    onProgress: sink.send,
  });
  if (sink.sent > 0) await sink.flush();
  if (confirmProgress && sink.sent > 0) {
    await ctx.mcpReq.send({ method: 'ping' }, { timeout: CONFIRM_PROGRESS_MS, signal: ctx.mcpReq.signal }).catch(() => undefined);
  }
  return outcome;
}

/**
 * Progress for the request in progress: every notification is written before the response, which
 * is not enough for the SDK client over stdio (it runs a notification's handler a microtask after
 * reading it but a response's at once, and drops the last one read in the same chunk as the
 * response, modelcontextprotocol/typescript-sdk#2580); the caller pings after a call that sent any.
 */
export function progressSink(ctx: ServerContext, metaToken: unknown) {
  const token = ctx.mcpReq._meta?.progressToken ?? metaToken;
  const pending: Array<Promise<unknown>> = [];
  const sink = {
    sent: 0,
    send: (p: ProgressUpdate) => {
      if (token === undefined) return;
      sink.sent++;
      pending.push(
        ctx.mcpReq
          .notify({ method: 'notifications/progress', params: { progressToken: token as string | number, ...p } })
          .catch(() => undefined),
      );
    },
    flush: () => Promise.all(pending),
  };
  return sink;
}
