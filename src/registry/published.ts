// What the registry publishes and takes: the published entries of every list, the options of a
// call, and what monitoring is told. Types only, so every part of the registry (and the server)
// can name them without importing one another.
import type {
  Logger,
  ProgressUpdate,
  PromptDef,
  ResourceDef,
  ResourceTemplateDef,
  ToolDef,
  ToolMeta,
  TraceContext,
} from '../backend/types.js';
import type { BackendHost } from './backend-host.js';
import type { ClientChannel, InputBroker } from './asks.js';
import type { HostClient } from './clients.js';
import type { Limits } from './limits.js';
import type { CallOutcome } from './result.js';
import type { JsonSchema } from './schemas.js';
import type { UiRenames } from './ui-names.js';

export interface RegistryOptions {
  logger: Logger;
  timeouts: { toolMs: number; startMs: number; shutdownMs: number };
  /** Serving clients that are told of list changes (`mcphost serve`): see BackendContext.serving. */
  serving?: boolean;
  /** Answer caps (default DEFAULT_LIMITS). */
  limits?: Partial<Limits>;
  /**
   * Clients' file arguments (ctx.files): `roots` (`files.roots`; default: the paths the loaded
   * backends' settings name) and the working directory relative paths of local clients start from.
   */
  files?: { roots?: readonly string[]; cwd?: string };
}

export interface PublishedTool {
  publicName: string;
  plugin: string;
  host: BackendHost;
  def: ToolDef;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** The tool's `_meta` as clients that render views are listed it (its `ui://` URIs as published). */
  meta?: ToolMeta;
  /** The backend's `ui://` URIs published under other names (ui-names.ts): its results are rewritten with them. */
  renames?: UiRenames;
}

export interface PublishedPrompt {
  publicName: string;
  plugin: string;
  host: BackendHost;
  def: PromptDef;
  arguments: Array<{ name: string; description?: string; required: boolean }>;
}

export interface PublishedResource {
  plugin: string;
  host: BackendHost;
  def: ResourceDef;
  /** The URI it is published under: `def.uri`, or its new name when another backend publishes that too. */
  uri: string;
  /** Set when the backend has renamed `ui://` URIs: its reads' contents are rewritten with them. */
  renames?: UiRenames;
  /** `def._meta` with those URIs renamed. */
  meta?: ResourceDef['_meta'];
}

export interface PublishedTemplate {
  plugin: string;
  host: BackendHost;
  def: ResourceTemplateDef;
}

export interface CallOptions {
  /** The caller's cancellation. */
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  /** Overrides every configured timeout for this call. */
  timeoutMs?: number;
  /** The client the call comes from (default: the registry's own in-process client). */
  client?: HostClient;
  /** The way back to that client for this request (its capabilities, elicitation, logging). */
  channel?: ClientChannel;
  /** Where the call's questions wait when the channel cannot send them (a 2026-era request, a task). */
  broker?: InputBroker;
  /** The caller's trace context (`traceparent` in the request's `_meta`), handed to the handler as ctx.trace. */
  trace?: TraceContext;
}

/** One finished tool call, for monitoring and the audit trail. */
export interface CallRecord {
  tool: string;
  plugin: string;
  durationMs: number;
  outcome: CallOutcome;
  /** Who called (absent for the host's own in-process client). */
  client?: HostClient;
  /** The arguments as sent (the audit trail keeps them only with `audit.arguments`). */
  args?: unknown;
  /** A resource read (`tool` is its URI) or a prompt get (`tool` is its name); absent for a tool call. */
  kind?: 'resource' | 'prompt';
  /** The answer's size, where `outcome.result` does not hold the answer (reads and prompts). */
  responseBytes?: number;
}

/** A gauge a backend published (ctx.gauge). */
export interface BackendGauge {
  plugin: string;
  name: string;
  help: string;
  read(): number | undefined;
}
