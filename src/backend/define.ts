// Type-only helpers: they return their argument unchanged and exist so authors get inference
// (a tool's handler sees its parsed arguments) without writing the generics themselves.
import * as z from 'zod';
import type { Backend, CommandDef, PromptDef, ToolDef } from './types.js';

export function defineBackend<C>(backend: Backend<C>): Backend<C> {
  return backend;
}

export function defineTool<C = any, S extends z.ZodType = z.ZodType>(tool: ToolDef<C, S>): ToolDef<C, S> {
  return tool;
}

export function definePrompt<C = any, S extends z.ZodType = z.ZodType>(prompt: PromptDef<C, S>): PromptDef<C, S> {
  return prompt;
}

export function defineCommand<C = any, S extends z.ZodType = z.ZodType>(command: CommandDef<C, S>): CommandDef<C, S> {
  return command;
}

/**
 * A config string that names a file or folder. A relative value is resolved against the folder of
 * the config file it was written in, or against the working directory when it came from the
 * environment or a flag.
 */
export function configPath(): z.ZodString {
  return z.string().min(1).meta({ 'mcphost/path': true });
}
