// Tools the task tests share: one that waits as long as it is told (or until cancelled), and one
// that answers its label after a random while, so that concurrent calls end in another order than
// they began; and that second one's backend served over Streamable HTTP on 127.0.0.1.
import * as z from 'zod';
import { defineBackend, defineTool } from '../../src/backend/index.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import type { HttpServing } from '../../src/server/http.js';
import { serveOnLoopback } from './http-serve.js';
import { inlineBackend } from './inline-backend.js';

/** `long`: waits `ms` milliseconds (or until cancelled); task-capable. */
export const waitTool = defineTool({
  name: 'long',
  description: 'waits ms milliseconds (or until cancelled)',
  input: z.object({ ms: z.number().int().max(10_000) }),
  task: 'optional',
  handler: ({ ms }, ctx) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve(`waited ${ms} ms`), ms);
      ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason)), { once: true });
    }),
});

/** Past 250 ms a call that may run as a task becomes one: each call takes 300 to 900 ms. */
const randomMs = () => 300 + Math.floor(Math.random() * 600);

/** Backend `w` with `echo_later` (published `w_echo_later`): answers `done:<label>` after a random while, or at once with `instant`. */
const echoLater = defineBackend({
  name: 'w',
  version: '1.0.0',
  description: 'answers its label after a random while',
  tools: [
    {
      name: 'echo_later',
      description: 'answers `label` after a random while',
      input: z.object({ label: z.string(), instant: z.boolean().optional() }),
      task: 'optional',
      handler: async ({ label, instant }) => {
        if (!instant) await new Promise((resolve) => setTimeout(resolve, randomMs()));
        return `done:${label}`;
      },
    },
  ],
});

/** `w_echo_later` served over HTTP on 127.0.0.1; `close` stops the server, then the registry. */
export async function serveEchoLater(): Promise<{ serving: HttpServing; close(): Promise<void> }> {
  const registry = await Registry.create([inlineBackend('w', echoLater)], {
    logger: silentLogger,
    timeouts: { toolMs: 30_000, startMs: 5_000, shutdownMs: 1_000 },
  });
  const serving = await serveOnLoopback(registry);
  return {
    serving,
    async close() {
      await serving.close();
      await registry.close();
    },
  };
}
