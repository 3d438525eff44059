// Calls into the published entries: tools, resource reads, prompts and completions, each through
// the one bounded call (bounded-call.ts). Keeps the tool calls in flight, for shutdown to wait on,
// and tells monitoring of each finished one.
import type { InputRequiredResult, Logger, PromptResult, ResourceContents } from '../backend/types.js';
import { boundedCall, type BoundedCall } from './bounded-call.js';
import type { Catalog } from './catalog.js';
import type { HostClient } from './clients.js';
import { CancelledError, InvalidParamsError, ShutdownError, TimeoutError } from './errors.js';
import { runTool } from './invoke.js';
import { argumentsTooLarge, measure, type Limits } from './limits.js';
import { runPrompt } from './prompts.js';
import type { CallOptions, CallRecord, PublishedTool } from './published.js';
import { errorOutcome, toReadContents, type CallOutcome } from './result.js';
import { admit, policyRefusal } from './policy-refusal.js';
import { isUiUri, renameInContents } from './ui-names.js';
import { ViewsRead } from './views-read.js';
import { isRequestError, isToolError, RequestError } from '../backend/errors.js';
import { POLICY_ERROR_CODE, type Verdict } from './policy.js';

/** A resource read's answer, or the questions its handler asks the client first. */
export type ReadAnswer = { contents: ResourceContents[] } | InputRequiredResult;

export interface DispatchEnvironment {
  shutdown: AbortSignal;
  toolMs: number;
  logger: Logger;
  limits: Limits;
  /** The client of callers that name none. */
  localClient: HostClient;
}

export class Dispatch {
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly callListeners = new Set<(record: CallRecord) => void>();
  private viewsRead?: ViewsRead;
  /** Whose views each client read: how a view's call by its server's own tool name finds that server (kept from the first read). */
  get views(): ViewsRead {
    return (this.viewsRead ??= new ViewsRead());
  }

  constructor(
    private readonly catalog: Catalog,
    private readonly env: DispatchEnvironment,
  ) {}

  /** The tool calls still running. */
  running(): Array<Promise<unknown>> {
    return [...this.inFlight];
  }

  onCall(listener: (record: CallRecord) => void): () => void {
    this.callListeners.add(listener);
    return () => this.callListeners.delete(listener);
  }

  invoke(tool: PublishedTool, args: unknown, options: CallOptions = {}): Promise<CallOutcome> {
    // The client's policy first (a tool it may not call is refused whatever its limits), then its limits.
    // A call without a client (one-shot, in-process) has neither.
    const refused = options.client && policyRefusal(options.client, tool.publicName);
    const admitted = refused || !options.client ? undefined : admit(options.client, tool.publicName);
    const stopped = refused ?? (admitted && 'outcome' in admitted ? admitted.outcome : undefined);
    // Copied only when the client is to be filled in (a relayed call's options come complete).
    const run = stopped
      ? Promise.resolve(stopped)
      : runTool(
          tool,
          args,
          options.client ? (options as CallOptions & { client: HostClient }) : { ...options, client: this.env.localClient },
          this.env,
        );
    this.inFlight.add(run);
    const started = performance.now();
    void run.then((outcome) => {
      if (admitted && 'release' in admitted) admitted.release();
      this.inFlight.delete(run);
      if (this.callListeners.size === 0) return;
      this.record({
        tool: tool.publicName,
        plugin: tool.plugin,
        durationMs: performance.now() - started,
        outcome,
        client: options.client,
        args,
      });
    });
    return run;
  }

  /** Tells monitoring of a call that ended (or was refused before it reached the registry, as HTTP's 429). */
  record(record: CallRecord): void {
    for (const listener of this.callListeners) {
      try {
        listener(record);
      } catch (error) {
        this.env.logger.debug(`call listener failed: ${(error as Error).message}`);
      }
    }
  }

  /**
   * Reads a resource. An unknown URI throws UnknownNameError; a failing read throws its error, a
   * read past the tool timeout a TimeoutError, an answer above `limits.resultBytes` a ResultTooLargeError.
   */
  readResource(uri: string, options: CallOptions = {}): Promise<ReadAnswer> {
    return this.tracked('resource', uri.slice(0, 2000), options.client, undefined, (at) => this.read(uri, options, at));
  }

  private async read(uri: string, options: CallOptions, at: { plugin: string }): Promise<ReadAnswer> {
    const found = await this.catalog.route(uri);
    at.plugin = found.target.plugin;
    const short = uri.slice(0, 200);
    await this.checkBackend(options.client, found.target.plugin);
    // A renamed view (ui-names.ts) is read under the URI its backend published, and answered under its new one.
    const renamed = found.kind === 'resource' && found.target.uri === uri ? found.target : undefined;
    const asked = renamed?.def.uri ?? uri;
    const answered = await boundedCall(
      this.bounds(`reading ${short}`, found.target.host, options, `resource ${short}`),
      (ctx) => (found.kind === 'resource' ? found.target.def.read(asked, ctx) : found.target.def.read(uri, found.variables, ctx)),
      (value) => toReadContents(asked, found.target.def.mimeType, value as Parameters<typeof toReadContents>[2]),
    );
    if ('asks' in answered) return answered.asks;
    const read = this.answerOf(answered, `resource ${short}`);
    if (isUiUri(uri)) this.views.saw(options.client ?? this.env.localClient, found.target.plugin);
    return renamed?.renames ? { ...read, contents: renameInContents(read.contents, renamed.renames) } : read;
  }

  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options: CallOptions = {},
  ): Promise<PromptResult | InputRequiredResult> {
    return this.tracked('prompt', name.slice(0, 200), options.client, args, (at) => this.prompt(name, args, options, at));
  }

  private async prompt(
    name: string,
    args: Record<string, string> | undefined,
    options: CallOptions,
    at: { plugin: string },
  ): Promise<PromptResult | InputRequiredResult> {
    const prompt = await this.catalog.prompt(name);
    at.plugin = prompt.plugin;
    await this.checkBackend(options.client, prompt.plugin);
    const tooLarge = argumentsTooLarge(args);
    if (tooLarge) throw new InvalidParamsError(`Invalid arguments for prompt ${name}: ${tooLarge}`);
    const answered = await boundedCall(
      this.bounds(`prompt ${name}`, prompt.host, options, `prompt ${name}`),
      (ctx) => runPrompt(prompt, args ?? {}, ctx),
      (value) => value as PromptResult,
    );
    return 'asks' in answered ? answered.asks : this.answerOf(answered, `prompt ${name}`);
  }

  /** Runs a read or a prompt and tells monitoring how it ended (the audit trail records each). */
  private async tracked<T>(
    kind: 'resource' | 'prompt',
    name: string,
    client: HostClient | undefined,
    args: unknown,
    work: (at: { plugin: string }) => Promise<T>,
  ): Promise<T> {
    if (this.callListeners.size === 0) return work({ plugin: '' });
    const at = { plugin: '' };
    const started = performance.now();
    const done = (outcome: CallOutcome, responseBytes: number) =>
      this.record({ tool: name, plugin: at.plugin, kind, durationMs: performance.now() - started, outcome, client, args, responseBytes });
    try {
      const value = await work(at);
      done({ result: { content: [] } }, measure(value, 64 * 1024 * 1024).bytes);
      return value;
    } catch (error) {
      done(readFailure(error), 0);
      throw error;
    }
  }

  async completeTemplate(uriTemplate: string, argument: string, value: string): Promise<string[]> {
    const t = await this.catalog.template(uriTemplate);
    const complete = t?.def.complete?.[argument];
    if (!t || !complete) return [];
    const bounds = { ...this.bounds(`completing ${argument}`, t.host, {}), start: false };
    const answered = await boundedCall(
      bounds,
      (ctx) => complete(value, ctx),
      (values) => values as string[],
    );
    return 'asks' in answered ? [] : this.answerOf(answered, `completing ${argument}`).slice(0, 100);
  }

  /** Refuses a subscription to a resource of a backend the client's policy keeps from it (as a read is refused). */
  async checkWatch(uri: string, client: HostClient | undefined): Promise<void> {
    if (!client?.access) return;
    await this.checkBackend(client, (await this.catalog.route(uri)).target.plugin);
  }

  /** Whether a client may see the resources and prompts of `plugin` (its policy; anyone else may). */
  async mayUseBackend(client: HostClient | undefined, plugin: string): Promise<boolean> {
    return (await this.backendVerdict(client, plugin)).allowed;
  }

  private async backendVerdict(client: HostClient | undefined, plugin: string): Promise<Verdict> {
    if (!client?.access) return { allowed: true };
    const tools = (await this.catalog.tools(plugin)).map((t) => t.publicName);
    return client.access.policy.backend(plugin, tools);
  }

  /** Refuses a read or prompt of a backend the client's policy keeps from it (a JSON-RPC error naming the rule). */
  private async checkBackend(client: HostClient | undefined, plugin: string): Promise<void> {
    const verdict = await this.backendVerdict(client, plugin);
    if (!verdict.allowed) {
      throw new RequestError(POLICY_ERROR_CODE, verdict.message, { data: { client: client!.access!.name, rule: verdict.rule } });
    }
  }

  private bounds(what: string, host: PublishedTool['host'], options: CallOptions, label?: string): BoundedCall {
    return {
      what,
      host,
      timeoutMs: options.timeoutMs ?? this.env.toolMs,
      shutdown: this.env.shutdown,
      signal: options.signal,
      client: options.client ?? this.env.localClient,
      channel: options.channel,
      broker: options.broker,
      ...(label !== undefined && { cap: { limits: this.env.limits, label } }),
    };
  }

  /** Reads, prompts and completions are never tasks: a handler that made one answered wrongly. */
  private answerOf<R>(answered: { answer: R } | { task: unknown }, what: string): R {
    if ('answer' in answered) return answered.answer;
    throw new Error(`${what}: the backend answered with a task, which only tool calls may`);
  }
}

/** How a failed read or prompt ended, in the kinds of a tool call's outcome (the client got a JSON-RPC error). */
function readFailure(error: unknown): CallOutcome {
  const message = error instanceof Error ? error.message : String(error);
  if (isRequestError(error) && error.code === POLICY_ERROR_CODE) return errorOutcome('policy', error.code, message);
  if (error instanceof TimeoutError) return errorOutcome('timeout', 'TIMEOUT', message);
  if (error instanceof CancelledError) return errorOutcome('cancelled', 'CANCELLED', message);
  if (error instanceof ShutdownError || (isToolError(error) && error.code === 'UNAVAILABLE'))
    return errorOutcome('unavailable', 'UNAVAILABLE', message);
  return errorOutcome('refused', isRequestError(error) ? error.code : 'READ_FAILED', message);
}
