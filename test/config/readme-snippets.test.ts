// Every client snippet in the README's "Connecting clients" that starts mcphost carries what its
// plugins need: parsed out of the README (JSON blocks, `claude mcp add` and Inspector command
// lines), each one's plugins and environment go through `doctor` in-process with nothing else
// set — the environment a client gives a server it starts — and every backend must come out healthy.
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { doctorReport } from '../../src/app/inspect.js';
import { docSection } from '../helpers/docs.js';
import { FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

/** The README's placeholders, and what stands for them here. */
const PLACEHOLDERS: Record<string, string> = { '/path/to/godot/doc': path.join(FIXTURES, 'godot/doc4') };

type Entry = { command?: string; args?: string[]; env?: Record<string, string> };
const CLIENT_KEYS = ['mcpServers', 'servers', 'context_servers', 'mcp_servers'];

interface Snippet {
  where: string;
  args: string[];
  env: Record<string, string>;
}

function snippets(): Snippet[] {
  const out: Snippet[] = [];
  for (const [, lang, body] of docSection('## Connecting clients').matchAll(/```(\w+)\n([\s\S]*?)```/g)) {
    if (lang === 'json' || lang === 'toml') {
      // Each client's key: mcpServers (Claude, Cursor, Windsurf), servers (VS Code), context_servers (Zed), mcp_servers (Codex).
      const file = (lang === 'json' ? JSON.parse(body) : parseToml(body)) as Record<string, Record<string, Entry> | undefined>;
      const [key, servers] = Object.entries(file).find(([k]) => CLIENT_KEYS.includes(k)) ?? [];
      if (!servers) throw new Error(`a ${lang} block in "Connecting clients" has none of ${CLIENT_KEYS.join(', ')}`);
      for (const [name, s] of Object.entries(servers))
        if (s.command === 'mcphost') out.push({ where: `${lang} ${key} ${name}`, args: s.args ?? [], env: s.env ?? {} });
      continue;
    }
    for (const line of body.split('\n')) {
      const words = line.trim().split(/\s+/);
      const at = words.indexOf('mcphost', words[0] === 'mcphost' ? 1 : 0);
      if (!/^(claude mcp add|npx @modelcontextprotocol\/inspector)/.test(line.trim()) || !words.slice(at + 1).includes('serve')) continue;
      const env: Record<string, string> = {};
      words.forEach((w, i) => {
        if (w === '-e' || w === '--env') {
          const [k, ...v] = words[i + 1].split('=');
          env[k] = v.join('=');
        }
      });
      // `claude mcp add … <name> -- mcphost serve …`: the command is after `--`; the Inspector's is the first `mcphost`.
      const command = words.includes('--') ? words.indexOf('--') + 1 : at;
      out.push({ where: line.trim(), args: words.slice(command + 1), env });
    }
  }
  return out;
}

function substitute(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => {
      const unknown = /\/path\/to\/[^\s"]*/.exec(v);
      if (unknown && !(unknown[0] in PLACEHOLDERS)) throw new Error(`README placeholder ${unknown[0]} has no stand-in in this test`);
      return [k, PLACEHOLDERS[v] ?? v];
    }),
  );
}

describe("the README's client snippets", () => {
  const found = snippets();

  it('are found: Claude Code (command line and .mcp.json), Claude Desktop, Cursor, VS Code, Zed, Codex and the Inspector', () => {
    expect(found.length).toBeGreaterThanOrEqual(8);
    expect(found.map((s) => s.where)).toEqual(
      expect.arrayContaining(['json servers mcphost', 'json context_servers mcphost', 'toml mcp_servers mcphost']),
    );
    expect(found.every((s) => s.args[0] === 'serve' && s.args.includes('--plugins'))).toBe(true);
  });

  for (const snippet of found) {
    it(`carry what their plugins need: ${snippet.where.slice(0, 80)}`, async () => {
      const t = tempDir();
      const plugins = snippet.args[snippet.args.indexOf('--plugins') + 1].split(',');
      const env = { HOME: t.dir, PATH: process.env.PATH, ...substitute(snippet.env) };
      const report = await doctorReport({ cwd: t.dir, env, plugins, writeLog: () => undefined });
      expect(report.plugins.map((p) => ({ name: p.name, ok: p.ok, message: p.ok ? '' : p.message }))).toEqual(
        plugins.map((name) => ({ name, ok: true, message: '' })),
      );
    });
  }
});
