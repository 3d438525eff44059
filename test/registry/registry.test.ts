import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openHost } from '../../src/app/open.js';
import type { Registry } from '../../src/registry/registry.js';
import { KITCHEN, FIXTURES } from '../helpers/paths.js';

const TALLY = path.join(FIXTURES, 'tally/index.js');
import { tempDir } from '../helpers/tmp.js';

const t = tempDir();
const open: Registry[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

let n = 0;
async function kitchen(settings: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const journal = path.join(t.dir, `journal-${++n}.log`);
  const file = t.write(`rc-${n}.json`, JSON.stringify({ plugins: { kitchen: { module: KITCHEN, journal, ...settings } }, ...extra }));
  const { registry } = await openHost({ cwd: t.dir, env: {}, configFile: file, writeLog: () => undefined });
  open.push(registry);
  const events = () => {
    try {
      return readFileSync(journal, 'utf8').trim().split('\n');
    } catch {
      return [];
    }
  };
  return { registry, events };
}

describe('registry', () => {
  it('publishes <plugin>_<tool> names and keeps names that already carry the plugin', async () => {
    const { registry } = await kitchen();
    const names = (await registry.tools()).map((x) => x.publicName);
    expect(names).toContain('kitchen_echo');
    expect(names).toContain('kitchen_add');
    expect(names.every((x) => x.startsWith('kitchen_'))).toBe(true);
    expect((await registry.prompts()).map((p) => p.publicName)).toEqual(['kitchen_order']);
  });

  it('stops start-up when two plugins publish the same public name, naming both', async () => {
    const file = t.write(
      'clash.json',
      JSON.stringify({
        plugins: {
          dup: { module: path.join(FIXTURES, 'bad-backends/clash2.js') },
          dup_x: { module: path.join(FIXTURES, 'bad-backends/clash.js') },
        },
      }),
    );
    await expect(openHost({ cwd: t.dir, env: {}, configFile: file, writeLog: () => undefined })).rejects.toThrow(
      'tool dup_x_y is published by both plugin dup and plugin dup_x',
    );
  });

  it('answers bad arguments with an error result naming each field, before the handler runs', async () => {
    const { registry, events } = await kitchen();
    const outcome = await registry.callTool('kitchen_slow', { steps: 'three', stepz: 1 });
    expect(outcome.result.isError).toBe(true);
    expect(outcome.error?.kind).toBe('invalid_arguments');
    const text = (outcome.result.content[0] as { text: string }).text;
    expect(text).toContain('steps: expected number, got a string ("three")');
    expect(text).toContain('stepz: unknown argument (valid: steps, stepMs, fromZero)');
    expect(events()).not.toContain('slow:start');
  });

  it('turns a throwing handler into an error result with its message and no stack trace', async () => {
    const { registry } = await kitchen();
    const outcome = await registry.callTool('kitchen_boom', {});
    expect(outcome.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'kaboom: the kitchen is on fire' }] });
    expect(JSON.stringify(outcome.result)).not.toMatch(/at .*\.js:\d+/);
  });

  it('keeps a handler error code and data in the structured error', async () => {
    const { registry } = await kitchen();
    const outcome = await registry.callTool('kitchen_coded', { name: 'pie' });
    expect(outcome.result._meta).toEqual({
      'mcphost/error': { code: 'NOT_FOUND', message: 'no such dish: pie', data: { suggestions: ['soup', 'salad'] } },
    });
    expect(outcome.result.structuredContent).toBeUndefined();
  });

  it('aborts a handler that runs past its timeout and answers with a timeout error', async () => {
    const { registry, events } = await kitchen({ timeoutMs: 150 });
    const outcome = await registry.callTool('kitchen_slow', { steps: 100, stepMs: 50 });
    expect(outcome.error).toMatchObject({ kind: 'timeout', code: 'TIMEOUT' });
    expect(outcome.error?.message).toBe('tool kitchen_slow timed out after 150 ms');
    await expect.poll(events).toContain('slow:aborted:TimeoutError');
  });

  it('lets a per-call timeout override the plugin one', async () => {
    const { registry } = await kitchen({ timeoutMs: 10_000 });
    const outcome = await registry.callTool('kitchen_slow', { steps: 100, stepMs: 50 }, { timeoutMs: 100 });
    expect(outcome.error?.message).toBe('tool kitchen_slow timed out after 100 ms');
  });

  it('aborts the handler when the caller cancels', async () => {
    const { registry, events } = await kitchen();
    const ac = new AbortController();
    setTimeout(() => ac.abort('user pressed stop'), 120);
    const outcome = await registry.callTool('kitchen_slow', { steps: 100, stepMs: 30 }, { signal: ac.signal });
    expect(outcome.error).toMatchObject({ kind: 'cancelled' });
    expect(outcome.error?.message).toContain('user pressed stop');
    await expect.poll(events).toContain('slow:aborted:CancelledError');
  });

  it('relays progress in order', async () => {
    const { registry } = await kitchen();
    const seen: number[] = [];
    const outcome = await registry.callTool('kitchen_slow', { steps: 4, stepMs: 1 }, { onProgress: (p) => seen.push(p.progress) });
    expect(outcome.result.content).toEqual([{ type: 'text', text: 'done 4' }]);
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  it('starts a backend lazily on first call, once', async () => {
    const { registry, events } = await kitchen();
    expect(events()).toEqual([]);
    await registry.callTool('kitchen_add', { a: 1, b: 2 });
    await registry.callTool('kitchen_add', { a: 1, b: 2 });
    expect(events()).toEqual(['start']);
  });

  it('reports a backend whose start fails as unavailable, and tries again on the next call', async () => {
    const { registry, events } = await kitchen({ failStart: true });
    const first = await registry.callTool('kitchen_add', { a: 1, b: 2 });
    expect(first.error).toMatchObject({ kind: 'unavailable', code: 'UNAVAILABLE' });
    expect(first.error?.message).toContain('the oven is cold');
    await registry.callTool('kitchen_add', { a: 1, b: 2 });
    expect(events()).toEqual(['start', 'start']);
    const health = await registry.health();
    expect(health.kitchen).toMatchObject({ ok: false, state: 'failed' });
  });

  it('says "no health check" for a backend that has none, rather than calling it ready', async () => {
    const file = t.write('rc-tally.json', JSON.stringify({ plugins: { tally: { module: TALLY } } }));
    const { registry } = await openHost({ cwd: t.dir, env: {}, configFile: file, writeLog: () => undefined });
    open.push(registry);
    const health = await registry.health();
    expect(health.tally).toMatchObject({ ok: true, state: 'idle', message: 'no health check (it starts on first use)' });
  });

  it('validates structured output against the output schema', async () => {
    const { registry } = await kitchen();
    const ok = await registry.callTool('kitchen_add', { a: 2, b: 3 });
    expect(ok.result.structuredContent).toEqual({ sum: 5 });
  });

  it('stops every started backend on close, once, even when close is called twice', async () => {
    const { registry, events } = await kitchen();
    await registry.callTool('kitchen_add', { a: 1, b: 2 });
    await Promise.all([registry.close(), registry.close()]);
    await registry.close();
    expect(events()).toEqual(['start', 'stop']);
    const after = await registry.callTool('kitchen_add', { a: 1, b: 2 });
    expect(after.error?.code).toBe('SHUTTING_DOWN');
  });

  it('does not stop a backend that never started', async () => {
    const { registry, events } = await kitchen();
    await registry.close();
    expect(events()).toEqual([]);
  });

  it('aborts in-flight calls on close and waits for them', async () => {
    const { registry, events } = await kitchen();
    const call = registry.callTool('kitchen_slow', { steps: 100, stepMs: 30 });
    await expect.poll(events).toContain('slow:start');
    await registry.close();
    expect((await call).error?.code).toBe('SHUTTING_DOWN');
    expect(events()).toEqual(expect.arrayContaining(['start', 'slow:start', 'stop']));
  });

  it('reads static resources and template resources, and throws for unknown URIs', async () => {
    const { registry } = await kitchen();
    expect(await registry.readResource('kitchen://menu')).toEqual({
      contents: [{ uri: 'kitchen://menu', mimeType: 'text/markdown', text: '# Menu\n- soup\n- salad\n' }],
    });
    const dish = await registry.readResource('kitchen://dish/salad');
    expect('contents' in dish && JSON.parse(dish.contents[0].text!)).toEqual({ dish: 'salad', uri: 'kitchen://dish/salad' });
    await expect(registry.readResource('kitchen://nothing')).rejects.toThrow('unknown resource "kitchen://nothing"');
    expect((await registry.resources()).map((r) => r.uri)).toEqual(['kitchen://menu', 'kitchen://dish/soup', 'kitchen://dish/salad']);
  });

  it('validates prompt arguments and completes template variables', async () => {
    const { registry } = await kitchen();
    await expect(registry.getPrompt('kitchen_order', {})).rejects.toThrow('dish: required (expected string)');
    const prompt = await registry.getPrompt('kitchen_order', { dish: 'soup', notes: 'no salt' });
    expect('messages' in prompt && prompt.messages[0]).toEqual({
      role: 'user',
      content: { type: 'text', text: 'Please order soup (no salt).' },
    });
    expect(await registry.completeTemplate('kitchen://dish/{name}', 'name', 'so')).toEqual(['soup', 'sorbet']);
  });

  it('suggests the closest tool name for an unknown one', async () => {
    const { registry } = await kitchen();
    await expect(registry.callTool('kitchen_ecko', {})).rejects.toThrow('did you mean kitchen_echo');
  });
});
