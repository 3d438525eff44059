#!/usr/bin/env node
// Hostile config files (issue 14, items 2 and 11): a YAML alias bomb in .mcprc (9 aliases per level
// under plugins.godot) and a .mcprc.json nested 2,000 deep, each found by the real binary from the
// working directory. Prints, per input: wall time, peak RSS (GNU time, when installed), exit code and
// the first line of stderr. A run past CAP_S is killed and shown as "> CAP_S s".
//   node bench/config-bombs.bench.js            (CAP_S=60 by default; BOMB_LEVELS=7,9 to choose)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { aliasBomb, deepJson, deepYaml } from '../test/fixtures/config-bombs.js';

// MCPHOST_BIN=/path/to/other/bin/run.js measures another build (the figures before a change).
const BIN = process.env.MCPHOST_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/run.js');
const CAP_S = Number(process.env.CAP_S ?? 60);
const LEVELS = (process.env.BOMB_LEVELS ?? '7,9').split(',').map(Number);
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

function run(name, file, content, args) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcphost-bomb-'));
  try {
    writeFileSync(path.join(dir, file), content);
    const env = { ...process.env, HOME: dir, XDG_CACHE_HOME: path.join(dir, '.cache'), XDG_DATA_HOME: path.join(dir, '.data') };
    const cmd = GNU_TIME ? [GNU_TIME, '-f', '__time %e %M', process.execPath, BIN, ...args] : [process.execPath, BIN, ...args];
    const started = process.hrtime.bigint();
    const r = spawnSync(cmd[0], cmd.slice(1), { cwd: dir, env, encoding: 'utf8', timeout: CAP_S * 1000, killSignal: 'SIGKILL' });
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    const timing = /__time ([\d.]+) (\d+)/.exec(r.stderr ?? '');
    const rss = timing ? `${(Number(timing[2]) / 1024).toFixed(0)} MB` : 'n/a';
    const first = (r.stderr ?? '').split('\n').find((l) => l.trim() && !l.startsWith('__time')) ?? '';
    const time = r.signal === 'SIGKILL' ? `> ${CAP_S} s` : `${wall.toFixed(2)} s`;
    console.log(
      `${name.padEnd(34)} ${String(content.length).padStart(6)} B  ${time.padStart(9)}  peak ${rss.padStart(8)}  exit ${r.status ?? r.signal}  ${first.slice(0, 110)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

execFileSync(process.execPath, [BIN, '--version'], { stdio: 'ignore' });
console.log(`input                              size        time        peak RSS   exit   first stderr line   (cap ${CAP_S} s)`);
for (const levels of LEVELS) run(`YAML alias bomb, ${levels} levels (tools)`, '.mcprc', aliasBomb(levels), ['tools', 'godot']);
run('.mcprc.json 2,000 deep (tools)', '.mcprc.json', deepJson(2000), ['tools', 'godot']);
run('.mcprc.json 2,000 deep (serve)', '.mcprc.json', deepJson(2000), ['serve', '--plugins', 'godot']);
run('.mcprc.yaml 2,000 deep (tools)', '.mcprc.yaml', deepYaml(2000), ['tools', 'godot']);
