// Tables and reports as a person at an 80-column terminal sees them, and as a script gets them
// through a pipe: the real binary on a pseudo-terminal (util-linux `script`) and on a pipe.
import path from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { SHARED_DATA } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { haveScript, runOnTty, visible } from '../helpers/tty.js';

const t = tempDir();
const env = isolatedEnv(t.dir, { NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined, TERM: 'xterm-256color' });
const words = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
}
const listed = JSON.parse((await runCli(['tools', '--plugins', 'pob,imhex', '--json'], { cwd: t.dir, env })).stdout) as ListedTool[];
const firstLines = listed.map((tool) => (tool.description ?? '').split('\n')[0].trim());

describe('on a terminal of 80 columns', () => {
  it.skipIf(!haveScript)('tools: no line is wider than the terminal, and every description is there whole', async () => {
    const r = await runOnTty(['tools', '--plugins', 'pob,imhex'], { cwd: t.dir, env, columns: 80 });
    expect(r.exitCode).toBe(0);
    const lines = visible(r.stdout).trimEnd().split('\n');
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    // Each tool's block (its name line and the lines under it) holds its whole description, word for word.
    const text = words(visible(r.stdout));
    for (const [i, tool] of listed.entries()) expect(text).toContain(words(`${tool.name} ${tool.title ?? ''} ${firstLines[i]}`));
    // Descriptions use the width they are given (the old table left them about 9 columns).
    const longest = Math.max(...lines.map((l) => stringWidth(l)));
    expect(longest).toBeGreaterThan(60);
  });

  it.skipIf(!haveScript)('doctor: lines fit and wrap between words, never inside one', async () => {
    const json = JSON.parse((await runCli(['doctor', '--plugins', 'pob,imhex', '--json'], { cwd: t.dir, env })).stdout) as {
      plugins: { name: string; message: string }[];
    };
    const r = await runOnTty(['doctor', '--plugins', 'pob,imhex'], { cwd: t.dir, env, columns: 80 });
    expect(r.exitCode).toBe(4);
    const shown = visible(r.stdout);
    for (const line of shown.trimEnd().split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    const imhex = json.plugins.find((p) => p.name === 'imhex')!;
    expect(imhex.message.length).toBeGreaterThan(200);
    // Joined back with single spaces, the wrapped report holds every message as it is: a break inside a word would split it.
    for (const p of json.plugins) expect(words(shown)).toContain(words(p.message));
  });

  it.skipIf(!haveScript)('colours marks and names, and NO_COLOR turns colour off', async () => {
    const [coloured, plain, dumb] = await Promise.all([
      runOnTty(['doctor', '--plugins', 'pob,imhex'], { cwd: t.dir, env }),
      runOnTty(['doctor', '--plugins', 'pob,imhex'], { cwd: t.dir, env: { ...env, NO_COLOR: '1' } }),
      runOnTty(['tools', '--plugins', 'pob'], { cwd: t.dir, env: { ...env, TERM: 'dumb' } }),
    ]);
    expect(coloured.stdout).toContain('\u001b[32m✔\u001b[39m');
    expect(coloured.stdout).toContain('\u001b[31m✖\u001b[39m');
    expect(plain.stdout).not.toContain('\u001b[');
    expect(visible(coloured.stdout)).toBe(plain.stdout);
    expect(dumb.stdout).not.toContain('\u001b[');
  });
});

describe('piped', () => {
  it('tools keeps whole lines with whole descriptions and no colour, even with CI set', async () => {
    const r = await runCli(['tools', '--plugins', 'pob,imhex'], { cwd: t.dir, env: { ...env, CI: 'true' } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain('\u001b[');
    const lines = r.stdout.split('\n');
    expect(lines).toHaveLength(listed.length);
    for (const [i, line] of lines.entries()) {
      expect(line.startsWith(listed[i].name)).toBe(true);
      expect(line.endsWith(firstLines[i])).toBe(true);
    }
    // The case the cut at 100 characters used to hit.
    expect(Math.max(...firstLines.map((l) => l.length))).toBeGreaterThan(120);
  });
});

describe('call', () => {
  // Errors only: the index build's progress bar would share the terminal with the result.
  const godotEnv = { ...env, GODOT_DOC_DIR: path.join(SHARED_DATA, 'godot-docs'), MCPHOST_LOG_LEVEL: 'error' };
  const search = ['call', 'godot', 'search', '--query', 'move a character', '--limit', '3'];

  it.skipIf(!haveScript)('on a terminal: an outline of key: value lines, Markdown markers turned to styles, wrapped', async () => {
    const [piped, tty] = await Promise.all([
      runCli(search, { cwd: t.dir, env: godotEnv, timeout: 90_000 }),
      runOnTty(search, { cwd: t.dir, env: godotEnv, columns: 80 }),
    ]);
    expect(piped.exitCode).toBe(0);
    expect(tty.exitCode).toBe(0);
    const hits = JSON.parse(piped.stdout) as { uri: string; name: string; snippet: string }[];
    expect(hits.some((h) => h.snippet.includes('**'))).toBe(true);
    const shown = visible(tty.stdout);
    expect(shown).not.toContain('**');
    expect(shown).not.toContain('"uri"');
    for (const line of shown.trimEnd().split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    for (const hit of hits) {
      expect(shown).toContain(`uri: ${hit.uri}\n`);
      expect(words(shown)).toContain(words(`snippet: ${hit.snippet.replaceAll('**', '')}`));
    }
    // Bold where the Markdown said so.
    expect(tty.stdout).toMatch(/\u001b\[1m[A-Za-z]+\u001b\[22m/);
  });

  it.skipIf(!haveScript)('--json on a terminal is the raw MCP result, as piped', async () => {
    const tty = await runOnTty([...search, '--json'], { cwd: t.dir, env: godotEnv, columns: 80 });
    const result = JSON.parse(tty.stdout) as { content: { type: string; text: string }[] };
    expect(result.content[0].text).toContain('**');
  });
});
