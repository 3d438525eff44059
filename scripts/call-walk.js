#!/usr/bin/env node
// The walk of `mcphost call` from the call command's run() to a plugin's handler, module by module:
// how many project modules it visits and how often it comes back to one it had left. Measured, not
// read from the import graph: a worker thread attaches the V8 inspector to this (main) thread and
// sets a breakpoint on every line of dist/src (stepping loses its way at awaits and loader hooks;
// breakpoints by URL hold for modules loaded later too). From `run()` of dist/src/commands/call.js
// until the handler of the trivial tool in bench/fixtures/trivial runs, each stop names the module
// it is in; consecutive stops in one module are one visit, and a visit to a module met before is a
// return. Only the host's modules count (not node_modules, not Node's). Run after `npm run build`:
// `node scripts/call-walk.js [--list]` (--list prints the visits in order).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = path.join(root, 'bench/fixtures/trivial/index.js');
const CALL = path.join(root, 'dist/src/commands/call.js');

if (isMainThread) {
  const list = process.argv.includes('--list');
  const work = mkdtempSync(path.join(tmpdir(), 'mcphost-walk-'));
  const config = path.join(work, '.mcprc.yaml');
  writeFileSync(config, `plugins:\n  bench:\n    module: ${FIXTURE}\nlog:\n  level: warn\n`);
  const runLine = readFileSync(CALL, 'utf8')
    .split('\n')
    .findIndex((l) => /^\s*async run\(\)/.test(l));
  if (runLine < 0) throw new Error(`no run() in ${CALL}: build first (npm run build)`);
  // The handler's body, not its line: the line also runs when the module is evaluated.
  const fixture = readFileSync(FIXTURE, 'utf8').split('\n');
  const handlerLine = fixture.findIndex((l) => l.includes('handler:'));
  const handlerColumn = fixture[handlerLine].indexOf('=>', fixture[handlerLine].indexOf('handler:')) + 3;
  const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { runLine, handlerLine, handlerColumn } });
  const walk = new Promise((resolve, reject) => {
    worker.on('message', (m) => (m.ready ? start().catch(reject) : resolve(m)));
    worker.on('error', reject);
  });
  const start = async () => {
    process.chdir(work);
    process.env.HOME = work;
    process.argv = [process.argv[0], path.join(root, 'bin/run.js'), 'call', 'bench', 'echo', '--message', 'hi', '--config', config];
    const { execute } = await import('@oclif/core');
    await execute({ dir: pathToFileURL(path.join(root, 'bin/run.js')).href });
  };
  const { stops, reached } = await walk;
  await worker.terminate();
  rmSync(work, { recursive: true, force: true });
  const visits = [];
  for (const m of stops) if (visits.at(-1) !== m) visits.push(m);
  const seen = new Set();
  let returns = 0;
  for (const m of visits) seen.has(m) ? returns++ : seen.add(m);
  if (list) for (const m of visits) process.stderr.write(`${m}\n`);
  const result = { modules: seen.size, visits: visits.length, returns, statements: stops.length, reachedHandler: reached };
  process.stderr.write(`${JSON.stringify(result)}\n`);
  process.exitCode = reached ? 0 : 1;
} else {
  const stops = [];
  let done = false;
  // The session alone does not keep this thread alive (not even while a post waits): the timer does.
  const timer = setTimeout(() => done || parentPort.postMessage({ stops, reached: false }), 150_000);
  parentPort.on('close', () => clearTimeout(timer));
  const session = new inspector.Session();
  session.connectToMainThread();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
  const urls = new Map();
  session.on('Debugger.scriptParsed', ({ params }) => urls.set(params.scriptId, params.url));
  let recording = false;
  session.on('Debugger.paused', ({ params }) => {
    const { location } = params.callFrames[0];
    const url = urls.get(location.scriptId) ?? params.callFrames[0].url;
    const file = url.startsWith('file:') ? path.relative(root, fileURLToPath(url)) : url;
    if (done) return void post('Debugger.resume');
    if (file === path.relative(root, CALL) && location.lineNumber >= workerData.runLine) recording = true;
    if (recording) stops.push(file.replace(/^dist\//, ''));
    if (file === path.relative(root, FIXTURE) && location.columnNumber >= workerData.handlerColumn) {
      done = true;
      parentPort.postMessage({ stops, reached: recording });
    }
    void post('Debugger.resume');
  });
  await post('Debugger.enable');
  const lines = [];
  const walkDir = (dir) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walkDir(p);
      else if (d.name.endsWith('.js')) {
        const url = pathToFileURL(p).href;
        readFileSync(p, 'utf8')
          .split('\n')
          .forEach((text, i) => /^\s*(\/\/|\/?\*|import |export \{|$)/.test(text) || lines.push({ url, lineNumber: i }));
      }
    }
  };
  walkDir(path.join(root, 'dist/src'));
  lines.push({ url: pathToFileURL(FIXTURE).href, lineNumber: workerData.handlerLine, columnNumber: workerData.handlerColumn });
  for (let i = 0; i < lines.length; i += 500) await Promise.all(lines.slice(i, i + 500).map((l) => post('Debugger.setBreakpointByUrl', l)));
  parentPort.postMessage({ ready: true });
}
