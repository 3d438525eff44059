// Type-only helpers: they return their argument unchanged and exist so authors get inference
// (a tool's handler sees its parsed arguments) without writing the generics themselves.
//
// TypeScript infers all of a call's type arguments or none, so `defineTool<Config>({...})` would
// leave the schema at its default and the handler's arguments `unknown`. The curried form fixes the
// config first and infers the schema in the second call (as zod's and tRPC's builders do):
//   const tool = defineTool<GodotConfig>();
//   tool({ name, input: z.object({ q: z.string() }), handler: (args, ctx) => ... }) // args: { q: string }
// The one-call form `defineTool({...})` (both inferred) stays for authors who need no config type.
import * as z from 'zod';
import type { Backend, CommandDef, PromptDef, ToolDef } from './types.js';

export function defineBackend<C>(backend: Backend<C>): Backend<C> {
  return backend;
}

type ToolOf<C> = <S extends z.ZodType>(tool: ToolDef<C, S>) => ToolDef<C, S>;
type PromptOf<C> = <S extends z.ZodType>(prompt: PromptDef<C, S>) => PromptDef<C, S>;
type CommandOf<C> = <S extends z.ZodType>(command: CommandDef<C, S>) => CommandDef<C, S>;

const same = <T>(def: T): T => def;

/** `defineTool<Config>()` returns a `defineTool` with the config type fixed and the schema inferred. */
export function defineTool<C>(): ToolOf<C>;
export function defineTool<C, S extends z.ZodType>(tool: ToolDef<C, S>): ToolDef<C, S>;
export function defineTool<C, S extends z.ZodType>(tool?: ToolDef<C, S>): ToolDef<C, S> | ToolOf<C> {
  return tool ?? same;
}

/** `definePrompt<Config>()` returns a `definePrompt` with the config type fixed and the schema inferred. */
export function definePrompt<C>(): PromptOf<C>;
export function definePrompt<C, S extends z.ZodType>(prompt: PromptDef<C, S>): PromptDef<C, S>;
export function definePrompt<C, S extends z.ZodType>(prompt?: PromptDef<C, S>): PromptDef<C, S> | PromptOf<C> {
  return prompt ?? same;
}

/** `defineCommand<Config>()` returns a `defineCommand` with the config type fixed and the schema inferred. */
export function defineCommand<C>(): CommandOf<C>;
export function defineCommand<C, S extends z.ZodType>(command: CommandDef<C, S>): CommandDef<C, S>;
export function defineCommand<C, S extends z.ZodType>(command?: CommandDef<C, S>): CommandDef<C, S> | CommandOf<C> {
  return command ?? same;
}

/**
 * A config string that names a file or folder. A relative value is resolved against the folder of
 * the config file it was written in, or against the working directory when it came from the
 * environment or a flag.
 */
export function configPath(): z.ZodString {
  return z.string().min(1).meta({ 'mcphost/path': true });
}

// Settings that decide what runs. A value of one of these that comes from a config file found by
// searching (a cloned repository's .mcprc) is not given to the backend until the user approves the
// file with `mcphost trust`, as `servers.*.command` is not started: the backend sees the setting as
// unset (its default applies) and finds it in `ctx.withheld`. The user's own config, a file named
// with --config, the environment and flags are the user's, and apply at once.

/**
 * A config string naming a program to run: a command looked up on PATH (`luajit`), or a path to an
 * executable, which (holding a `/`) is resolved like `configPath()`.
 */
export function programPath(): z.ZodString {
  return z.string().min(1).meta({ 'mcphost/runs': 'program' });
}

/**
 * A config string naming a file or folder of code the backend runs (a script, a checkout whose
 * scripts an interpreter loads). Resolved like `configPath()`, and approved like `programPath()`.
 */
export function codePath(): z.ZodString {
  return z.string().min(1).meta({ 'mcphost/path': true, 'mcphost/runs': 'code' });
}

/**
 * Marks any other setting whose value decides what runs — a command line given as a string or an
 * array, a program's arguments, an interpreter's options — so that it waits for approval like
 * `programPath()`: `mcpCommand: runs(z.union([z.string(), z.array(z.string())]))`.
 */
export function runs<S extends z.ZodType>(schema: S): S {
  return schema.meta({ 'mcphost/runs': 'command' }) as S;
}
