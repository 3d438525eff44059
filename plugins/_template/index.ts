// _template: the smallest plugin to copy (`cp -r plugins/_template plugins/<name>`). One setting,
// one tool, a health check. Its name is its folder's, so a copy needs no edit to load; the host
// skips folders starting with `_`, so the template itself is never served.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';

const NAME = path.basename(path.dirname(fileURLToPath(import.meta.url)));

// A setting that names something to run is declared so — `programPath()` (a program), `codePath()`
// (a script or a folder of code), `runs(schema)` (a command line) — and then waits for the user's
// approval when a cloned project's .mcprc sets it; a feature that needs it calls
// `requireApproved(ctx, ['key'])` first. This template runs nothing, so it has none.
const configSchema = z.object({
  greeting: z.string().min(1).default('hello').describe('the word the greet tool starts with'),
});

type Config = z.output<typeof configSchema>;

export default defineBackend<Config>({
  name: NAME,
  version: '0.1.0',
  description: 'A template: greets someone (copy this folder to start a plugin)',
  configSchema,
  tools: [
    {
      name: 'greet',
      description: 'Greets someone by name, with the configured greeting.',
      input: z.object({ name: z.string().min(1).max(200).describe('who to greet') }),
      annotations: { readOnlyHint: true },
      handler: ({ name }: { name: string }, ctx) => `${ctx.config.greeting}, ${name}!`,
    },
  ],
  health: (ctx) => ({ ok: true, message: `greeting with "${ctx.config.greeting}"` }),
});
