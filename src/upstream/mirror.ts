// Publishes an upstream MCP server's tools, prompts, resources and templates as a backend's
// listings: schemas are given verbatim (`{ jsonSchema }`), results come back unchanged, progress
// and cancellation pass through. The last lists that were read are kept, so an upstream that goes
// down keeps its tools listed (they answer "unavailable") until it is back.
import * as z from 'zod';
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import type {
  BackendContext,
  CallContext,
  ListKind,
  Logger,
  PromptDef,
  ResourceDef,
  ResourceTemplateDef,
  ToolDef,
} from '../backend/types.js';
import type { UpstreamClient } from './client.js';
import { TOOL_NAME } from '../backend/names.js';

/** Calls made on behalf of a client have their own deadline (ctx.signal); this only backs it up. */
const BACKSTOP_MS = 24 * 60 * 60 * 1000;

export interface MirrorOptions {
  /** The backend name: the prefix of the published tool names. */
  name: string;
  client: UpstreamClient;
  logger: Logger;
  /** Publish only these upstream tools (names or `*` globs). */
  allowedTools?: string[];
  /** Never publish these upstream tools (names or `*` globs). */
  blockedTools?: string[];
  /** Replaces listing resources through the upstream client (the unreal editor's fallback endpoint). */
  listResources?(): Promise<Resource[]>;
  /** Replaces reading a resource through the upstream client. */
  readResource?(uri: string, signal: AbortSignal): Promise<{ contents: Array<{ uri: string; [k: string]: unknown }> }>;
}

export interface Mirror {
  tools(ctx: BackendContext): Promise<ToolDef[]>;
  prompts(ctx: BackendContext): Promise<PromptDef[]>;
  resources(ctx: BackendContext): Promise<ResourceDef[]>;
  resourceTemplates(ctx: BackendContext): Promise<ResourceTemplateDef[]>;
  /** Forwards list changes to the host (set from the first context the host hands over). */
  notify(kind: ListKind): void;
  /** How many tools were last published. */
  toolCount(): number | undefined;
}

export function globMatcher(patterns: string[]): (name: string) => boolean {
  const regexes = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ),
  );
  return (name) => regexes.some((r) => r.test(name));
}

export function createMirror(options: MirrorOptions): Mirror {
  const { client, logger } = options;
  let notifyHost: ((kind: ListKind) => void) | undefined;
  const cache = new Map<string, unknown[]>();
  const allowed = options.allowedTools ? globMatcher(options.allowedTools) : () => true;
  const blocked = options.blockedTools ? globMatcher(options.blockedTools) : () => false;
  const warned = new Set<string>();
  const warnOnce = (text: string) => {
    if (warned.has(text)) return;
    warned.add(text);
    logger.warn(text);
  };

  /** Reads one list; on failure serves the last one read (or rethrows) and watches for the upstream's return. */
  async function cached<T>(key: string, ctx: BackendContext, read: () => Promise<T[]>): Promise<T[]> {
    // Only the tools listing reports an unreachable upstream; the other lists are then empty.
    const quiet = key !== 'tools';
    notifyHost ??= ctx.notifyListChanged;
    try {
      const items = await read();
      cache.set(key, items);
      return items;
    } catch (error) {
      client.watch(() => {
        for (const kind of ['tools', 'resources', 'prompts'] as const) notifyHost?.(kind);
      });
      const last = cache.get(key);
      if (last) return last as T[];
      if (quiet && (error as { code?: unknown }).code === 'UNAVAILABLE') return [];
      throw error;
    }
  }

  /** A list the server does not implement (-32601) is empty, not an error. */
  const optional = async <T>(list: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await list();
    } catch (error) {
      if ((error as { code?: unknown }).code === -32601) return [];
      throw error;
    }
  };

  const capable = async (what: 'prompts' | 'resources') => {
    const c = await client.connect();
    return Boolean(c.getServerCapabilities()?.[what]);
  };

  function toolDef(tool: Tool): ToolDef {
    return {
      name: tool.name,
      ...((tool.title ?? tool.annotations?.title) !== undefined && { title: tool.title ?? tool.annotations?.title }),
      description: tool.description ?? '',
      input: { jsonSchema: tool.inputSchema as Record<string, unknown> },
      ...(tool.outputSchema && { output: { jsonSchema: tool.outputSchema as Record<string, unknown> } }),
      ...(tool.annotations && { annotations: tool.annotations }),
      handler: (args: unknown, ctx: CallContext) =>
        client.request(
          (c) =>
            c.callTool(
              { name: tool.name, arguments: (args ?? {}) as Record<string, unknown> },
              {
                signal: ctx.signal,
                timeout: BACKSTOP_MS,
                onprogress: (p) => ctx.progress({ progress: p.progress, total: p.total, message: p.message }),
              },
            ),
          ctx.signal,
        ),
    };
  }

  async function listTools(): Promise<ToolDef[]> {
    const { tools } = await client.request((c) => c.listTools(undefined, client.listOptions()));
    const out: ToolDef[] = [];
    const seen = new Set<string>();
    for (const tool of tools) {
      if (!allowed(tool.name) || blocked(tool.name)) continue;
      const published = tool.name.startsWith(`${options.name}_`) ? tool.name : `${options.name}_${tool.name}`;
      if (!TOOL_NAME.test(published) || seen.has(tool.name)) {
        warnOnce(
          `${options.name}: skipping upstream tool ${JSON.stringify(tool.name)}: ${seen.has(tool.name) ? 'listed twice' : `${published} is not a valid MCP tool name`}`,
        );
        continue;
      }
      seen.add(tool.name);
      out.push(toolDef(tool));
    }
    for (const pattern of options.allowedTools ?? []) {
      if (!tools.some((t) => globMatcher([pattern])(t.name)))
        warnOnce(`${options.name}: allowedTools entry ${JSON.stringify(pattern)} matches no upstream tool`);
    }
    return out;
  }

  function promptDef(prompt: Prompt): PromptDef {
    const shape: Record<string, z.ZodType> = {};
    for (const arg of prompt.arguments ?? []) {
      const field = arg.description ? z.string().describe(arg.description) : z.string();
      shape[arg.name] = arg.required ? field : field.optional();
    }
    return {
      name: prompt.name,
      ...(prompt.title !== undefined && { title: prompt.title }),
      ...(prompt.description !== undefined && { description: prompt.description }),
      args: z.object(shape),
      get: (args: Record<string, string>, ctx: CallContext) =>
        client.request((c) => c.getPrompt({ name: prompt.name, arguments: args }, { signal: ctx.signal }), ctx.signal) as never,
    };
  }

  const read = (uri: string, ctx: CallContext) =>
    options.readResource
      ? options.readResource(uri, ctx.signal)
      : client.request((c) => c.readResource({ uri }, { signal: ctx.signal }), ctx.signal);

  function resourceDef(resource: Resource): ResourceDef {
    return {
      uri: resource.uri,
      name: resource.name,
      ...(resource.title !== undefined && { title: resource.title }),
      ...(resource.description !== undefined && { description: resource.description }),
      ...(resource.mimeType !== undefined && { mimeType: resource.mimeType }),
      read: (uri: string, ctx: CallContext) => read(uri, ctx),
    };
  }

  function templateDef(template: ResourceTemplate, completions: boolean): ResourceTemplateDef {
    const complete: ResourceTemplateDef['complete'] = {};
    if (completions) {
      for (const variable of templateVariables(template.uriTemplate)) {
        complete[variable] = async (value: string) => {
          const result = await client.request((c) =>
            c.complete({ ref: { type: 'ref/resource', uri: template.uriTemplate }, argument: { name: variable, value } }),
          );
          return result.completion.values;
        };
      }
    }
    return {
      uriTemplate: template.uriTemplate,
      name: template.name,
      ...(template.title !== undefined && { title: template.title }),
      ...(template.description !== undefined && { description: template.description }),
      ...(template.mimeType !== undefined && { mimeType: template.mimeType }),
      ...(completions && { complete }),
      read: (uri: string, _variables: unknown, ctx: CallContext) => read(uri, ctx),
    };
  }

  return {
    tools: (ctx) => cached('tools', ctx, listTools),
    prompts: (ctx) =>
      cached('prompts', ctx, async () =>
        (await capable('prompts'))
          ? (await optional(async () => (await client.request((c) => c.listPrompts(undefined, client.listOptions()))).prompts)).map(
              promptDef,
            )
          : [],
      ),
    resources: (ctx) =>
      cached('resources', ctx, async () => {
        if (options.listResources) return (await options.listResources()).map(resourceDef);
        return (await capable('resources'))
          ? (await optional(async () => (await client.request((c) => c.listResources(undefined, client.listOptions()))).resources)).map(
              resourceDef,
            )
          : [];
      }),
    resourceTemplates: (ctx) =>
      cached('templates', ctx, async () => {
        if (!(await capable('resources'))) return [];
        const c = await client.connect();
        const completions = Boolean(c.getServerCapabilities()?.completions);
        const templates = await optional(
          async () => (await client.request((cl) => cl.listResourceTemplates(undefined, client.listOptions()))).resourceTemplates,
        );
        return templates.map((t) => templateDef(t, completions));
      }),
    notify: (kind) => notifyHost?.(kind),
    toolCount: () => cache.get('tools')?.length,
  };
}

/** Variable names of an RFC 6570 template: `a://{x}/{+y}{?p,q*}` → x, y, p, q. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, body] of template.matchAll(/\{([^}]+)\}/g)) {
    for (const part of body.replace(/^[+#./;?&]/, '').split(',')) names.push(part.replace(/[*]$|:\d+$/, '').trim());
  }
  return names.filter(Boolean);
}
