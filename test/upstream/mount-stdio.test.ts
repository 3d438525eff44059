// A stdio MCP server mounted from .mcprc `servers`, served in-process (the `serve` path: config →
// loader → registry → MCP server) to the SDK client; the upstreams are real child processes. Names,
// schemas and results pass through; progress, cancellation, timeouts and list changes cross the
// proxy; a crashed child comes back on a later call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { serveInProcess, type InProcessSession } from '../helpers/in-process.js';
import { tempDir } from '../helpers/tmp.js';
import { fixtureEntry, journalLines, textOf, waitFor, whenListed, writeConfig } from './helpers.js';

describe('a stdio server mounted from .mcprc', () => {
  const tmp = tempDir('mcphost-upstream-');
  const journal = path.join(tmp.dir, 'journal.log');
  let session: InProcessSession;

  beforeAll(async () => {
    writeConfig(tmp.dir, {
      servers: {
        // warn: the tools it adds at run time are served (block, a project file's default, would
        // withhold them until `mcphost trust --tools`: test/upstream/pinned-tools.test.ts).
        fx: fixtureEntry(journal, { pinTools: 'warn' }),
        // The same server again, with a short timeout and a tool filter.
        fxt: fixtureEntry(journal, { timeoutMs: 400, blockedTools: ['crash', 'grand*'] }, { FIXTURE_TOOLS_ONLY: '1' }),
        fxa: fixtureEntry(journal, { allowedTools: ['echo', 'div*'] }, { FIXTURE_TOOLS_ONLY: '1' }),
      },
    });
    session = await serveInProcess({ cwd: tmp.dir });
    await whenListed(session.client, ['fx_echo', 'fxt_slow', 'fxa_echo']);
  });
  afterAll(() => session?.close());

  it('publishes the upstream tools under <name>_ with their schemas, titles and annotations unchanged', async () => {
    const { tools } = await session.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['fx_echo', 'fx_divide', 'fx_slow', 'fx_crash', 'fx_add-tool']));
    const echo = tools.find((t) => t.name === 'fx_echo')!;
    expect(echo.title).toBe('Echo');
    expect(echo.annotations).toMatchObject({ readOnlyHint: true });
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    const divide = tools.find((t) => t.name === 'fx_divide')!;
    expect(divide.outputSchema).toMatchObject({ type: 'object', properties: { quotient: { type: 'number' } } });
  });

  it('filters tools with allowedTools and blockedTools', async () => {
    const names = (await session.client.listTools()).tools.map((t) => t.name);
    expect(names.filter((n) => n.startsWith('fxa_')).sort()).toEqual(['fxa_divide', 'fxa_echo']);
    expect(names).toContain('fxt_slow');
    expect(names).not.toContain('fxt_crash');
    expect(names).not.toContain('fxt_grandchild');
  });

  it('passes results through: text, structured content and the upstream isError', async () => {
    const echo = await session.client.callTool({ name: 'fx_echo', arguments: { text: 'hi' } });
    expect(textOf(echo)).toBe('echo: hi');
    const divided = await session.client.callTool({ name: 'fx_divide', arguments: { a: 7, b: 2 } });
    expect(divided.structuredContent).toEqual({ quotient: 3.5 });
    const byZero = await session.client.callTool({ name: 'fx_divide', arguments: { a: 1, b: 0 } });
    expect(byZero.isError).toBe(true);
    expect(textOf(byZero)).toBe('division by zero');
  });

  it('reports bad arguments with the upstream server’s own validation message', async () => {
    const result = await session.client.callTool({ name: 'fx_echo', arguments: { text: 42 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/text/);
  });

  it('passes prompts and resources through', async () => {
    const { prompts } = await session.client.listPrompts();
    const greet = prompts.find((p) => p.name === 'fx_greet')!;
    expect(greet).toMatchObject({ title: 'Greet', arguments: [{ name: 'who', required: true }] });
    const got = await session.client.getPrompt({ name: 'fx_greet', arguments: { who: 'Ada' } });
    expect(got.messages[0].content).toMatchObject({ type: 'text', text: 'Hello, Ada!' });
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri)).toContain('fixture://notes');
    const read = await session.client.readResource({ uri: 'fixture://notes' });
    expect(read.contents[0]).toMatchObject({ uri: 'fixture://notes', text: 'some notes' });
  });

  it('relays the upstream’s progress to the client', async () => {
    const seen: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = await session.client.callTool(
      { name: 'fx_slow', arguments: { steps: 6, stepMs: 40 } },
      { onprogress: (p) => seen.push(p) },
    );
    expect(textOf(result)).toBe('done 6');
    // The SDK client dispatches notifications a tick late, so progress read together with the result
    // (the last steps, on a loaded machine) can be dropped on arrival; the earlier ones must all be there, in order.
    expect(seen.map((p) => p.progress).slice(0, 3)).toEqual([1, 2, 3]);
    expect(seen[1]).toMatchObject({ progress: 2, total: 6, message: 'step 2' });
  });

  it('sends the client’s cancellation upstream', async () => {
    const before = journalLines(journal).filter((l) => l === 'slow:cancelled').length;
    const abort = new AbortController();
    const call = session.client.callTool(
      { name: 'fx_slow', arguments: { steps: 200, stepMs: 50 } },
      { signal: abort.signal, onprogress: (p) => p.progress >= 2 && abort.abort('user gave up') },
    );
    await expect(call).rejects.toThrow();
    await waitFor(() => journalLines(journal).filter((l) => l === 'slow:cancelled').length > before, 'the upstream to see the cancel');
  });

  it('times a call out after servers.<name>.timeoutMs and cancels it upstream', async () => {
    const before = journalLines(journal).filter((l) => l === 'slow:cancelled').length;
    const result = await session.client.callTool({ name: 'fxt_slow', arguments: { steps: 200, stepMs: 50 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/timed out after 400 ms/);
    await waitFor(() => journalLines(journal).filter((l) => l === 'slow:cancelled').length > before, 'the upstream to see the cancel');
  });

  it('forwards the upstream’s tools/list_changed to the client', async () => {
    let changed = 0;
    session.client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    const added = await session.client.callTool({ name: 'fx_add-tool', arguments: { name: 'late' } });
    expect(textOf(added)).toBe('added late');
    await waitFor(() => changed > 0, 'tools/list_changed');
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toContain('fx_late');
    expect(textOf(await session.client.callTool({ name: 'fx_late', arguments: {} }))).toBe('late');
  });

  it('answers "unavailable" after the child dies, and restarts it on a later call', async () => {
    const firstPid = Number(textOf(await session.client.callTool({ name: 'fx_pid', arguments: {} })));
    const crashed = await session.client.callTool({ name: 'fx_crash', arguments: { code: 3 } });
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toMatch(/^upstream fx unavailable: `.*server\.mjs` exited with code 3: fixture: crashing on request/);
    expect(crashed._meta?.['mcphost/error']).toMatchObject({ code: 'UNAVAILABLE' });
    // Other upstreams are unaffected.
    expect(textOf(await session.client.callTool({ name: 'fxa_echo', arguments: { text: 'still here' } }))).toBe('echo: still here');
    // Within the first backoff second the next call is refused with the reason; then the child is started again.
    const secondPid = await waitFor(async () => {
      const r = await session.client.callTool({ name: 'fx_pid', arguments: {} });
      if (r.isError) {
        expect(textOf(r)).toMatch(/upstream fx unavailable: .*exited with code 3/);
        return undefined;
      }
      return Number(textOf(r));
    }, 'fx to restart');
    expect(secondPid).not.toBe(firstPid);
    expect(journalLines(journal).filter((l) => l.startsWith('start ')).length).toBeGreaterThanOrEqual(4);
  });
});
