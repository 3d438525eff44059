// The contract every backend implements. Built-in plugins and third-party packages use the same
// types; nothing here knows which transport (stdio, HTTP, one-shot `call`) is in use.
import type * as z from 'zod';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface Logger {
  error(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  debug(message: string, detail?: unknown): void;
  child(scope: string): Logger;
}

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export type ListKind = 'tools' | 'resources' | 'prompts';

/** Given to `start`, `stop`, `health` and dynamic list functions. */
export interface BackendContext<C = unknown> {
  /** The backend's own section of `.mcprc`, validated by its `configSchema`. */
  config: C;
  /**
   * The folder relative paths are resolved against: the config file's folder, or the working
   * directory when there is no config file. (`configPath()` values arrive already absolute.)
   */
  configDir: string;
  /**
   * This backend's own cache folder (`$XDG_CACHE_HOME/mcphost/<plugin>` by default; `cacheDir` in
   * .mcprc moves the root). It may not exist yet: create it when writing.
   */
  cacheDir: string;
  /** Writes to stderr: stdout belongs to the protocol. */
  logger: Logger;
  /** Aborted when the host shuts down. */
  signal: AbortSignal;
  /** Tell the host that `tools`, `resources` or `prompts` changed so clients are notified. */
  notifyListChanged(kind: ListKind): void;
  /**
   * True under `mcphost serve`, whose clients are told when lists change: a listing that depends on
   * something slow (a server to connect to) then answers at once with what it knows and calls
   * `notifyListChanged` once it knows more. False for one-shot commands (`tools`, `call`, `read`),
   * which want the full answer and wait for it.
   */
  serving?: boolean;
  /**
   * A listing that answered without the slow thing and with nothing to show for it (a server still
   * starting, no list cached) says so, with a promise that settles once it knows more (after its
   * `notifyListChanged`): a client's `tools/list` then waits for it, at most `timeouts.firstListMs`
   * after it was said, for clients that list once and never follow `list_changed`. Absent outside `serve`.
   */
  listingPending?(settled: Promise<unknown>): void;
  /**
   * Publishes a number for monitoring (`GET /metrics`): `read` is called at each scrape and its value
   * exported as the gauge `mcphost_<plugin>_<name>` (pob: `queue_length`). Registering a name again
   * replaces it. Absent where nothing scrapes (one-shot commands may still call it: it is a no-op).
   */
  gauge?(name: string, help: string, read: () => number | undefined): void;
  /**
   * Settings that decide what runs (`programPath()`, `codePath()`, `runs()`) which a config file the
   * user has not approved tried to set: the backend got them unset (their defaults) instead. A
   * feature that needs one calls `requireApproved(ctx, [...keys])`, which throws an
   * UnavailableError telling the user what to approve. Empty (or absent) when nothing was withheld.
   */
  withheld?: readonly WithheldSetting[];
}

/** A setting a config file not yet approved tried to set (see BackendContext.withheld). */
export interface WithheldSetting {
  /** Its key path in the backend's section: `pobPath`, `lua.cmd`. */
  key: string;
  /** Its full key: `plugins.pob.pobPath`. */
  path: string;
  /** What it names: a program, code, or a command line (or its arguments). */
  kind: 'program' | 'code' | 'command';
  /** The file that set it (the one to approve). */
  file: string;
  /** The file was never approved, or changed since it was. */
  reason: 'not-approved' | 'changed';
}

/** W3C trace context of the request a call serves (`traceparent` in the request's `_meta`). */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

/** How a client reached mcphost. */
export type ClientTransport = 'stdio' | 'http' | 'in-process';

/**
 * The client a call comes from: one stdio connection, one 2025-era HTTP session, one 2026-era HTTP
 * request (that era is stateless: explicit handles carry state between its requests), or one
 * one-shot command. What a backend keeps for a client belongs in `state`, never in module globals,
 * so that one client never sees another's.
 */
export interface ClientInfo {
  /** Unique for the life of the host process. */
  readonly id: string;
  /**
   * Who is calling, the same across requests: over HTTP the named client, token or OAuth subject,
   * else the peer's address (every 2026-era request is a client of its own, its caller is not);
   * over stdio and in-process the connection itself. Fairness and per-caller bounds key on it.
   */
  readonly caller: string;
  readonly transport: ClientTransport;
  /**
   * True when the client reached mcphost over the network (HTTP). File arguments of a remote
   * client resolve only inside the configured roots.
   */
  readonly remote: boolean;
  /**
   * This backend's value for this client under `key`, made by `create` on first use. Dropped when
   * the client goes away (its session closes); a value with a `dispose()` method is told then.
   */
  state<T>(key: string, create: () => T): T;
  /**
   * What the client declared it can do (`elicitation`, `sampling`, `roots`, `extensions`, …): at
   * `initialize` for a 2025-era client, on each request for a 2026-era one; `{}` for a one-shot
   * command. `ctx.elicit`, `ctx.sample` and `ctx.listRoots` check it themselves.
   */
  readonly capabilities: ClientCapabilities;
}

/** A client's declared capabilities, as MCP sends them (only the keys mcphost reads are typed). */
export interface ClientCapabilities {
  elicitation?: { form?: object; url?: object; [key: string]: unknown };
  sampling?: { tools?: object; context?: object; [key: string]: unknown };
  roots?: { listChanged?: boolean; [key: string]: unknown };
  extensions?: Record<string, unknown>;
  [key: string]: unknown;
}

/** `elicitation/create` parameters: a form (`requestedSchema`) or, with `mode: 'url'`, a page to open. */
export type ElicitParams =
  | { mode?: 'form'; message: string; requestedSchema: Record<string, unknown>; [key: string]: unknown }
  | { mode: 'url'; message: string; url: string; elicitationId?: string; [key: string]: unknown };

/** What the client answered an elicitation with. */
export interface ElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
  [key: string]: unknown;
}

/** `sampling/createMessage` parameters (messages, maxTokens, …) as MCP defines them. */
export interface SampleParams {
  messages: Array<{ role: 'user' | 'assistant'; content: unknown }>;
  maxTokens: number;
  [key: string]: unknown;
}

/** What the client's model answered. */
export interface SampleAnswer {
  role: 'assistant' | 'user';
  content: unknown;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

export interface Root {
  uri: string;
  name?: string;
}

/** MCP's log levels, from least to most severe. */
export type ClientLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** One request a call needs the client to answer before it can go on (protocol revision 2026-07-28, SEP-2322). */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params?: Record<string, unknown>;
}

/**
 * "Ask the client first": what a handler returns instead of a result when it needs answers (a
 * multi-round-trip request, SEP-2322). The host sends the requests to the client — embedded in the
 * answer for a 2026-era client, as real requests for a 2025-era one — and calls the handler again
 * with `ctx.input.responses` (keyed as here) and `ctx.input.state` (this `requestState`, returned
 * unchanged: the host seals it, so a client cannot alter it). Build it with `inputRequired()`.
 */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  /** Anything JSON: what the handler needs to remember between rounds. */
  requestState?: unknown;
}

/** The answers of a retried multi-round-trip request (see InputRequiredResult). */
export interface InputAnswers {
  /** The client's answers, keyed as the handler asked; only this round's. */
  responses: Record<string, unknown>;
  /** The `requestState` the handler returned last round. */
  state?: unknown;
}

/**
 * Files a call may read or write when an argument names one. Resolve every such argument through
 * `resolve` before touching the disk: a local client (stdio, one-shot) may name any file, relative
 * to the working directory; a remote client (HTTP) only files inside `roots`.
 */
export interface FileAccess {
  /** Folders (or single files) a remote client may name: `files.roots` in .mcprc, else the paths the plugin settings name. */
  readonly roots: readonly string[];
  /**
   * The absolute path `pathArg` names for this client. For a remote client, anything outside the
   * roots (after following links) is refused with a `ToolError` (code `PATH_NOT_ALLOWED`) whose
   * message is the same whether the path exists or not; `field` names the argument in it.
   */
  resolve(pathArg: string, options?: { field?: string }): Promise<string>;
  /**
   * True for a client over the network: a message to it names a file as the client gave it, never
   * by the server's absolute path (its folders are not the client's business).
   */
  readonly remote?: boolean;
}

/** Given to a tool handler, a resource read or a prompt. */
export interface CallContext<C = unknown> extends BackendContext<C> {
  /** The client this call comes from. */
  client: ClientInfo;
  /** Where file arguments of this client may point (see FileAccess). */
  files: FileAccess;
  /** Aborted on client cancellation, timeout or host shutdown; `signal.reason` says which. */
  signal: AbortSignal;
  /** Reports progress to the caller (dropped when the caller did not ask for progress). */
  progress(update: ProgressUpdate): void;
  /** The caller's trace context, when its request carried one: pass it on to what the call reaches. */
  trace?: TraceContext;
  /**
   * Sends a log message to the client (`notifications/message`), if it asked for that level (a
   * 2025-era client with `logging/setLevel`, a 2026-era one per request). Not stderr: that is `logger`.
   */
  log(level: ClientLogLevel, data: unknown, logger?: string): void;
  /**
   * Asks the user, through the client: a form (`requestedSchema`) or a URL to open (`mode: 'url'`).
   * Throws MissingCapabilityError when the client did not declare elicitation (in that mode). A
   * 2025-era client gets the request at once; for a 2026-era client the call is paused and the client
   * answers on its next request (or through `tasks/update` when the call runs as a task).
   */
  elicit(params: ElicitParams): Promise<ElicitAnswer>;
  /** Asks the client's model for a completion (`sampling/createMessage`); like `elicit` otherwise. */
  sample(params: SampleParams): Promise<SampleAnswer>;
  /** The client's roots (`roots/list`); like `elicit` otherwise. */
  listRoots(): Promise<{ roots: Root[] }>;
  /** Set when the client retried a request this handler answered with `inputRequired(…)`. */
  input?: InputAnswers;
}

// MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865 as of 2026-01-26): a tool names a
// `ui://` resource, an HTML view the client renders its results with (`text/html;profile=mcp-app`).
// These fields reach a client that declared the extension unchanged; one that did not sees the tool
// and the resource as it would without them, and no tool meant only for views.

/** Who may call a tool: the client's model, a view (an app) of the same server, or both. */
export type ToolVisibility = 'model' | 'app';

/** A tool's `_meta.ui`. */
export interface UiToolMeta {
  /** The `ui://` resource the client renders this tool's results with. */
  resourceUri?: string;
  /**
   * Who may call it (default both). Without `'model'` the tool is for views only: mcphost lists it
   * to no model (a client without the extension, discover mode's search), and still answers calls.
   */
  visibility?: ToolVisibility[];
  /** Anything else the extension defines later passes unchanged (the spec puts `csp` and `permissions` on the resource). */
  [key: string]: unknown;
}

/** A tool's `_meta`: the view it renders with (`ui`), and anything else, passed to the client as it is. */
export interface ToolMeta {
  ui?: UiToolMeta;
  /** The older flat spelling of `ui.resourceUri`, still read by some clients: give both. */
  'ui/resourceUri'?: string;
  [key: string]: unknown;
}

/** Origins a view may reach; each omitted list means none (the client's restrictive default). */
export interface UiResourceCsp {
  /** fetch, XHR, WebSocket (`connect-src`). */
  connectDomains?: string[];
  /** Scripts, styles, images, fonts, media. */
  resourceDomains?: string[];
  /** Nested iframes (`frame-src`). */
  frameDomains?: string[];
  /** `base-uri`. */
  baseUriDomains?: string[];
}

/** Browser features a view asks for; the client may grant them or not. */
export interface UiResourcePermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** A view's `_meta.ui`, on its `resources/list` entry and on its `resources/read` contents (which win). */
export interface UiResourceMeta {
  csp?: UiResourceCsp;
  permissions?: UiResourcePermissions;
  /** A dedicated sandbox origin; its format is the client's (e.g. `<hash>.claudemcpcontent.com`). */
  domain?: string;
  /** Whether the client should draw a border and background around the view. */
  prefersBorder?: boolean;
  [key: string]: unknown;
}

/** A resource's `_meta`: a view's `ui` settings, and anything else, passed as it is. */
export interface ResourceMeta {
  ui?: UiResourceMeta;
  [key: string]: unknown;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type ContentBlock =
  | { type: 'text'; text: string; annotations?: Record<string, unknown>; _meta?: Record<string, unknown> }
  | { type: 'image' | 'audio'; data: string; mimeType: string; annotations?: Record<string, unknown> }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string; title?: string }
  | { type: 'resource'; resource: ResourceContents }
  | { type: string; [key: string]: unknown };

/** The MCP `CallToolResult` shape. A handler may return one, or any plain value (see `ToolHandler`). */
export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** A JSON Schema given verbatim (mounted upstream servers publish their schemas as-is). */
export interface JsonSchemaInput {
  jsonSchema: Record<string, unknown>;
}

// Callbacks that take the config or the parsed arguments are typed through a method signature
// (`{ m(...): R }['m']`, as React types its event handlers): TypeScript compares those bivariantly,
// so a `ToolDef<GodotConfig, typeof schema>` still fits where the host keeps `ToolDef<unknown>`
// (every backend as `Backend<unknown>`, every tool with any schema) without `any`. Authors get the
// narrow types from `defineTool<Config>()`.
/**
 * A handler returns a `ToolResult` (recognised by its `content` array), a string (sent as text) or
 * any other JSON value (a plain object becomes `structuredContent`; every value is also sent as
 * JSON text so clients without structured-content support see it).
 */
export type ToolHandler<A, C> = { handler(args: A, ctx: CallContext<C>): unknown | Promise<unknown> }['handler'];

export interface ToolDef<C = unknown, S extends z.ZodType = z.ZodType> {
  /** Plugin-local name; published as `<plugin>_<name>` unless it already starts with `<plugin>_`. */
  name: string;
  title?: string;
  description: string;
  /** zod object schema of the arguments (zod ≥ 4.2), or a verbatim JSON Schema. */
  input: S | JsonSchemaInput;
  output?: z.ZodType | JsonSchemaInput;
  annotations?: ToolAnnotations;
  /** Overrides the host and plugin timeout for this tool. */
  timeoutMs?: number;
  /**
   * Whether a call may run as a task (the tasks extension, SEP-2663) for a client that declared it:
   * `optional` — a call that has not finished within a moment becomes a task the client polls;
   * `required` — always a task, and a client without the extension is refused (-32021).
   * Without it the call is answered when done.
   */
  task?: 'optional' | 'required';
  /**
   * Metadata listed with the tool: `ui` names the view of its results (MCP Apps). Listed only to
   * clients that declared the `io.modelcontextprotocol/ui` extension.
   */
  _meta?: ToolMeta;
  handler: ToolHandler<z.output<S>, C>;
}

export interface ResourceContents {
  uri: string;
  /** A view's is `text/html;profile=mcp-app`. */
  mimeType?: string;
  text?: string;
  blob?: string;
  /** A view's `ui` settings (csp, permissions, domain, prefersBorder): they win over the listing's. */
  _meta?: ResourceMeta;
}

/** A read returns `{ contents }`, a string (text with the resource's mimeType) or a JSON value. */
export type ReadResult = { contents: ResourceContents[] } | string | unknown;

export interface ResourceDef<C = unknown> {
  /** A view's URI starts with `ui://`. */
  uri: string;
  name: string;
  title?: string;
  description?: string;
  /** A view's is `text/html;profile=mcp-app`. */
  mimeType?: string;
  /** Listed with the resource to clients that declared the MCP Apps extension (a view's `ui` settings). */
  _meta?: ResourceMeta;
  /**
   * The URI is handed as-is to a server that matches it itself (a mounted MCP server): a `{var}`
   * may then hold `/`, and a URI whose scheme only this backend publishes is read here too.
   */
  passThrough?: boolean;
  read(uri: string, ctx: CallContext<C>): ReadResult | Promise<ReadResult>;
  /** Watches the resource for clients that subscribed to it (see ResourceSubscribe). */
  subscribe?: ResourceSubscribe<C>;
}

/**
 * Starts watching `uri` for its subscribers: call `changed()` whenever its content changes; return
 * what stops the watch (called when the last subscriber goes). Without it, subscribing is refused.
 */
export type ResourceSubscribe<C = unknown> = {
  // A method signature, as ToolHandler's: checked bivariantly, so a typed backend's fits the host's.
  subscribe(uri: string, changed: () => void, ctx: BackendContext<C>): (() => void | Promise<void>) | Promise<() => void | Promise<void>>;
}['subscribe'];

export interface ResourceListing {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  _meta?: ResourceMeta;
}

export interface ResourceTemplateDef<C = unknown> {
  /** RFC 6570 template, e.g. `godot://class/{name}` or `godot://search{?q,kind}`. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Listed with the template to clients that declared the MCP Apps extension. */
  _meta?: ResourceMeta;
  /** Concrete resources this template stands for, merged into `resources/list`. */
  list?(ctx: BackendContext<C>): ResourceListing[] | Promise<ResourceListing[]>;
  /** Argument completion, keyed by template variable. */
  complete?: Record<string, { complete(value: string, ctx: BackendContext<C>): string[] | Promise<string[]> }['complete']>;
  /**
   * The URI is handed as-is to a server that matches it itself (a mounted MCP server): a `{var}`
   * may then hold `/`, and a URI whose scheme only this backend publishes is read here too.
   */
  passThrough?: boolean;
  read(uri: string, variables: Record<string, string | string[]>, ctx: CallContext<C>): ReadResult | Promise<ReadResult>;
  /** Watches a resource of this template for its subscribers (see ResourceSubscribe). */
  subscribe?: ResourceSubscribe<C>;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

export interface PromptDef<C = unknown, S extends z.ZodType = z.ZodType> {
  name: string;
  title?: string;
  description?: string;
  /** zod object schema of the arguments; every value is a string on the wire. */
  args?: S;
  /** Returns the messages, or a string sent as one user message (or `inputRequired(…)`, as a tool may). */
  get(
    args: z.output<S>,
    ctx: CallContext<C>,
  ): PromptResult | string | InputRequiredResult | Promise<PromptResult | string | InputRequiredResult>;
}

export interface HealthReport {
  ok: boolean;
  /** One line for people: what is wrong and how to fix it, or what is serving. */
  message?: string;
  detail?: Record<string, unknown>;
}

/**
 * A command a plugin adds to the CLI (`mcphost <plugin>:<name>`, e.g. `exile:snapshot`). It runs
 * without `start()`, with the backend's validated config; its result is printed (or given as JSON).
 */
export interface CommandDef<C = unknown, S extends z.ZodType = z.ZodType> {
  summary: string;
  /** zod object schema of the command's options. */
  input: S;
  run(args: z.output<S>, ctx: CallContext<C>): unknown | Promise<unknown>;
}

/** A list given as an array, or computed from the backend's context (config-gated or remote). */
export type Listing<T, C> = T[] | { list(ctx: BackendContext<C>): T[] | Promise<T[]> }['list'];

export interface Backend<C = unknown> {
  /** Plugin name: lowercase letters, digits, `-`; the prefix of its public tool names. */
  name: string;
  version: string;
  description: string;
  /** zod schema of the backend's section of `.mcprc` (without the host's keys: enabled, module, eager, timeoutMs). */
  configSchema?: z.ZodType<C>;
  /** Environment variables that set config keys: `{ docDir: 'GODOT_DOC_DIR', 'lua.enabled': 'POB_LUA_ENABLED' }`. */
  env?: Record<string, string>;
  tools?: Listing<ToolDef<C>, C>;
  resources?: Listing<ResourceDef<C>, C>;
  resourceTemplates?: Listing<ResourceTemplateDef<C>, C>;
  prompts?: Listing<PromptDef<C>, C>;
  /** CLI commands of the plugin, by name (see CommandDef). */
  commands?: Record<string, CommandDef<C>>;
  /** Runs before the first call (or at serve start with `eager: true`). Throw to report the backend unavailable. */
  start?(ctx: BackendContext<C>): void | Promise<void>;
  stop?(ctx: BackendContext<C>): void | Promise<void>;
  health?(ctx: BackendContext<C>): HealthReport | Promise<HealthReport>;
}

/** A module may export a backend, or a factory that builds one. */
export type BackendFactory<C = unknown> = () => Backend<C> | Promise<Backend<C>>;
