#!/usr/bin/env node
// pob on large and hostile builds (issue 14, case 5): for each input, the time pob_analyze_build
// takes, the longest the event loop stalled meanwhile (what every other client waits), and the
// peak RSS of the process. Each case runs in its own child process; `inline` is the reference:
// the same parse on the main thread, as before parsing moved to a worker.
// Inputs: the real builds in ../shared/data/pob-builds, made-up builds of 1, 4 and 12 MB of XML,
// and a ~270 KB share code that inflates to 56.7 MB (refused at the 16 MiB cap).
// Run after `npm run build`: `node bench/pob-large.bench.js`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const DATA = process.env.MCPHOST_SHARED_DATA ?? path.resolve(here, '../../shared/data');
const UNIT =
  '<Skill enabled="true" slot="Body Armour" label="x"><Gem nameSpec="Fireball" level="20" quality="20" enabled="true"/></Skill>\n';

function bigBuild(mb) {
  const body = UNIT.repeat(Math.floor((mb * 1024 * 1024) / UNIT.length));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<PathOfBuilding>\n<Build level="90" className="Witch"/>\n<Skills>\n${body}</Skills>\n</PathOfBuilding>\n`;
}

function input(name) {
  if (name.startsWith('real:')) return readFileSync(path.join(DATA, 'pob-builds', name.slice(5)), 'utf8');
  if (name === 'bomb-56.7MB') return deflateSync(bigBuild(56.7), { level: 9 }).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  return bigBuild(Number(name.replace(/^xml-|MB$/g, '')));
}

async function runCase(file, mode) {
  const build = readFileSync(file, 'utf8');
  const { readBuildText } = await import('../dist/plugins/pob/build/build-input.js');
  const { parseBuildXml } = await import('../dist/plugins/pob/build/xml.js');
  const { analyzeBuild } = await import('../dist/plugins/pob/build/analyze.js');
  const { xmlTools } = await import('../dist/plugins/pob/build/xml-tools.js');
  const tool = xmlTools.find((t) => t.name === 'analyze_build');
  const lag = monitorEventLoopDelay({ resolution: 5 });
  let outcome = 'ok';
  lag.enable();
  await new Promise((r) => setTimeout(r, 20));
  const started = performance.now();
  try {
    if (mode === 'inline') analyzeBuild(parseBuildXml((await readBuildText(build, 'build')).xml, 'build'));
    else await tool.handler({ build }, { signal: new AbortController().signal });
  } catch (error) {
    outcome = error.code ?? error.message;
  }
  const ms = performance.now() - started;
  // Let the monitor's timer run once more, so a stall that just ended is recorded.
  await new Promise((r) => setTimeout(r, 20));
  lag.disable();
  const out = {
    case: path.basename(file).replace(/\.txt$/, ''),
    mode,
    inputKB: Math.round(build.length / 1024),
    ms: Math.round(ms),
    maxLoopStallMs: Math.round(lag.max / 1e6),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    outcome,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

if (process.argv[2] === '--case') {
  await runCase(process.argv[3], process.argv[4]);
} else {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcphost-pob-large-'));
  const real = readdirSync(path.join(DATA, 'pob-builds'))
    .filter((f) => f.endsWith('.xml'))
    .map((f) => `real:${f}`);
  const cases = [...real, 'xml-1MB', 'xml-4MB', 'xml-12MB', 'bomb-56.7MB'];
  const rows = [];
  for (const name of cases)
    for (const mode of ['worker', 'inline']) {
      if (mode === 'inline' && name.startsWith('real:')) continue; // small builds are parsed inline either way
      const file = path.join(dir, `${name.replace(/^real:/, '')}.txt`);
      writeFileSync(file, input(name));
      const line = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--case', file, mode], { encoding: 'utf8' });
      const row = JSON.parse(line.trim().split('\n').pop());
      rows.push(row);
      console.log(
        `${row.case.padEnd(40)} ${row.mode.padEnd(6)} ${String(row.inputKB).padStart(6)} KB  ${String(row.ms).padStart(6)} ms  loop stall ${String(row.maxLoopStallMs).padStart(6)} ms  RSS ${String(row.peakRssMB).padStart(5)} MB  ${row.outcome}`,
      );
    }
  rmSync(dir, { recursive: true, force: true });
  console.log(JSON.stringify({ bench: 'pob-large', rows }));
}
