// Typed authoring (README "Writing a backend"): with the config type given once, a tool's handler
// still gets its arguments from its own zod schema, and the typed tools fit the host's Backend.
// The expectTypeOf lines are checked by the compiler: by `npm run typecheck` (tsc over test/), and
// by the last test here, which compiles this file so a focused vitest run catches a regression too.
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import {
  defineBackend,
  defineCommand,
  definePrompt,
  defineTool,
  type Backend,
  type CallContext,
  type ToolDef,
} from '../../src/backend/index.js';
import { REPO } from '../helpers/paths.js';

interface DemoConfig {
  root: string;
  depth: number;
}

const tool = defineTool<DemoConfig>();

const searchInput = z.object({ query: z.string(), limit: z.number().int().default(10), kind: z.enum(['a', 'b']).optional() });

const search = tool({
  name: 'search',
  description: 'find things',
  input: searchInput,
  handler: (args, ctx) => {
    expectTypeOf(args).toEqualTypeOf<{ query: string; limit: number; kind?: 'a' | 'b' | undefined }>();
    expectTypeOf(ctx).toEqualTypeOf<CallContext<DemoConfig>>();
    expectTypeOf(ctx.config.depth).toEqualTypeOf<number>();
    // @ts-expect-error: not in the schema
    void args.nope;
    return `${ctx.config.root}:${args.query}:${args.limit}`;
  },
});

const prompt = definePrompt<DemoConfig>()({
  name: 'guide',
  args: z.object({ task: z.string().optional() }),
  get: (args, ctx) => {
    expectTypeOf(args).toEqualTypeOf<{ task?: string | undefined }>();
    expectTypeOf(ctx.config).toEqualTypeOf<DemoConfig>();
    return args.task ?? 'no task';
  },
});

const command = defineCommand<DemoConfig>()({
  summary: 'count',
  input: z.object({ times: z.coerce.number() }),
  run: (args) => {
    expectTypeOf(args).toEqualTypeOf<{ times: number }>();
    return args.times;
  },
});

describe('typed authoring', () => {
  it('infers the schema with the config type given, and the typed tools fit a Backend', () => {
    expectTypeOf(search).toEqualTypeOf<ToolDef<DemoConfig, typeof searchInput>>();
    const backend = defineBackend<DemoConfig>({
      name: 'demo',
      version: '0',
      description: 'demo',
      tools: [search, tool({ name: 'other', description: 'other', input: z.object({ n: z.number() }), handler: ({ n }) => n + 1 })],
      prompts: [prompt],
      commands: { count: command },
    });
    // The host keeps every backend as Backend<unknown>: a typed one must fit there without a cast.
    expectTypeOf(backend).toExtend<Backend>();
    const held: Backend = backend;
    expect(held.name).toBe('demo');
  });

  it('keeps the one-call form (third-party plugins) and returns the definition unchanged', () => {
    const input = z.object({ a: z.string() });
    const plain = defineTool({ name: 'plain', description: 'plain', input, handler: ({ a }) => a.length });
    expectTypeOf(plain).toEqualTypeOf<ToolDef<unknown, typeof input>>();
    const both = defineTool<DemoConfig, typeof input>({ name: 'both', description: 'both', input, handler: (args) => args.a });
    expectTypeOf(both.handler).parameter(0).toEqualTypeOf<{ a: string }>();
    expect(tool(plain as ToolDef<DemoConfig, typeof input>)).toBe(plain);
  });

  it('compiles: the type assertions above hold', () => {
    const file = fileURLToPath(import.meta.url);
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    expect(errors).toEqual([]);
  }, 120_000);
});

describe('no-explicit-any', () => {
  // Linted with the repository's own config as if the probe were a file in the tree.
  const anys = async (file: string) => {
    const code = 'export const f = (x: any): string => String(x);\n';
    const [result] = await new ESLint({ cwd: REPO }).lintText(code, { filePath: path.join(REPO, file) });
    return result.messages.filter((m) => m.ruleId === '@typescript-eslint/no-explicit-any' && m.severity === 2).length;
  };

  it('is an error in src/ and plugins/', async () => {
    expect(await anys('src/registry/probe.ts')).toBe(1);
    expect(await anys('plugins/godot/surface/probe.ts')).toBe(1);
  });
});
