// An upstream's tools, prompts, resources and templates as backend definitions: schemas given
// verbatim (`{ jsonSchema }`), results unchanged, progress and cancellation passed through, and
// every URI handed to the server as it is (`passThrough`: the server matches it itself).
import * as z from 'zod';
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import type {
  CallContext,
  InputRequiredResult,
  Logger,
  PromptDef,
  PromptResult,
  ResourceDef,
  ResourceTemplateDef,
  ToolDef,
} from '../../backend/types.js';
import { TOOL_NAME } from '../../backend/names.js';
import type { UpstreamClient } from './client.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/client';
import { callUpstreamTool, outputCheck } from './sdk-bypass/call-tool.js';
import { passThrough } from './pass-through.js';
import { globMatcher } from '../glob.js';

/** Calls made on behalf of a client have their own deadline (ctx.signal); this only backs it up. */
const BACKSTOP_MS = 24 * 60 * 60 * 1000;

/**
 * A 2026-era server's prompts/get answer, passed on as the server gave it (pass-through.ts accepts
 * any object): a prompt, or an InputRequiredResult with the server's keys and requestState. The SDK
 * checks it against the era's result schema before it reaches the client.
 */
const promptAnswer = (answer: unknown): PromptResult | InputRequiredResult => answer as PromptResult | InputRequiredResult;

/** The upstream of each tool definition made here (see relaysPlainly). */
const upstreamOf = new WeakMap<ToolDef, UpstreamClient>();

/**
 * Whether a call of `def` is a mounted tool's, relayed to a server spoken to in the 2025 era: its
 * outcome is then a result or an error result, never an input-required result, a task or a
 * refused request (those come only through pass-through.ts, from a 2026-era server). The stdio
 * server's fast path (src/server/sdk-bypass/tool-call.ts) takes only such calls.
 */
export function relaysPlainly(def: ToolDef): boolean {
  return upstreamOf.get(def)?.era === 'legacy';
}

export interface DefsOptions {
  /** The backend name: the prefix of the published tool names. */
  name: string;
  client: UpstreamClient;
  logger: Logger;
  allowedTools?: string[];
  blockedTools?: string[];
  readResource?(uri: string, signal: AbortSignal): Promise<{ contents: Array<{ uri: string; [k: string]: unknown }> }>;
}

/** Variable names of an RFC 6570 template: `a://{x}/{+y}{?p,q*}` → x, y, p, q. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, body] of template.matchAll(/\{([^}]+)\}/g)) {
    for (const part of body.replace(/^[+#./;?&]/, '').split(',')) names.push(part.replace(/[*]$|:\d+$/, '').trim());
  }
  return names.filter(Boolean);
}

export function createDefs(options: DefsOptions) {
  const { client, logger } = options;
  const allowed = options.allowedTools ? globMatcher(options.allowedTools) : () => true;
  const blocked = options.blockedTools ? globMatcher(options.blockedTools) : () => false;
  const warned = new Set<string>();
  const warnOnce = (text: string) => {
    if (warned.has(text)) return;
    warned.add(text);
    logger.warn(text);
  };

  function toolDef(tool: Tool): ToolDef {
    const output = outputCheck(tool);
    const def: ToolDef = {
      name: tool.name,
      ...((tool.title ?? tool.annotations?.title) !== undefined && { title: tool.title ?? tool.annotations?.title }),
      description: tool.description ?? '',
      input: { jsonSchema: tool.inputSchema as Record<string, unknown> },
      ...(tool.outputSchema && { output: { jsonSchema: tool.outputSchema as Record<string, unknown> } }),
      ...(tool.annotations && { annotations: tool.annotations }),
      // MCP Apps: the view the server renders this tool with, its visibility — listed as the server gave it.
      ...(tool._meta && { _meta: tool._meta }),
      // A 2026-era server runs its own tasks, passed through (pass-through.ts); a call to a 2025-era
      // one may become a task of mcphost's for a 2026-era client that declared the tasks extension.
      ...(client.era !== 'modern' && { task: 'optional' as const }),
      handler: async (args: unknown, ctx: CallContext) => {
        const params = { name: tool.name, arguments: (args ?? {}) as Record<string, unknown> };
        // A live connection's era is known at once (connectedEra would say the same a promise hop later).
        if ((client.era ?? (await client.connectedEra())) === 'modern') {
          return client.asks.during(ctx, () => passThrough(client, 'tools/call', params, ctx, BACKSTOP_MS, tool));
        }
        return client.asks.during(ctx, () =>
          client.request(
            (c) =>
              callUpstreamTool(
                c,
                // The caller's trace continues upstream (W3C trace context in _meta, as the spec reserves it).
                { ...params, ...(ctx.trace && { _meta: { ...ctx.trace } }) },
                {
                  signal: ctx.signal,
                  timeout: BACKSTOP_MS,
                  onprogress: (p) => ctx.progress({ progress: p.progress, total: p.total, message: p.message }),
                },
                output,
              ),
            ctx.signal,
          ),
        );
      },
    };
    upstreamOf.set(def, client);
    return def;
  }

  /** The tools to publish: allowed, not blocked, with valid and distinct names. */
  function toolDefs(tools: Tool[]): ToolDef[] {
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
      get: async (args: Record<string, string>, ctx: CallContext) => {
        const params = { name: prompt.name, arguments: args };
        if ((await client.connectedEra()) === 'modern') {
          return promptAnswer(
            await client.asks.during(ctx, () => passThrough(client, 'prompts/get', params, ctx, DEFAULT_REQUEST_TIMEOUT_MSEC)),
          );
        }
        return client.asks.during(ctx, () => client.request((c) => c.getPrompt(params, { signal: ctx.signal }), ctx.signal));
      },
    };
  }

  const read = async (uri: string, ctx: CallContext) => {
    if (options.readResource) return options.readResource(uri, ctx.signal);
    if ((await client.connectedEra()) === 'modern') {
      return client.asks.during(ctx, () => passThrough(client, 'resources/read', { uri }, ctx, DEFAULT_REQUEST_TIMEOUT_MSEC));
    }
    return client.asks.during(ctx, () => client.request((c) => c.readResource({ uri }, { signal: ctx.signal }), ctx.signal));
  };

  function resourceDef(resource: Resource): ResourceDef {
    return {
      uri: resource.uri,
      name: resource.name,
      ...(resource.title !== undefined && { title: resource.title }),
      ...(resource.description !== undefined && { description: resource.description }),
      ...(resource.mimeType !== undefined && { mimeType: resource.mimeType }),
      ...(resource._meta && { _meta: resource._meta }),
      passThrough: true,
      read: (uri: string, ctx: CallContext) => read(uri, ctx),
      subscribe: (uri: string, changed: () => void) => client.watchResource(uri, changed),
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
      ...(template._meta && { _meta: template._meta }),
      ...(completions && { complete }),
      passThrough: true,
      read: (uri: string, _variables: unknown, ctx: CallContext) => read(uri, ctx),
      subscribe: (uri: string, changed: () => void) => client.watchResource(uri, changed),
    };
  }

  return { toolDefs, promptDef, resourceDef, templateDef };
}
