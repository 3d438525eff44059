#!/usr/bin/env node
// The walk of `mcphost call` from the call command's run() to the tool's handler, module by module:
// how many project modules it visits and how often it comes back to one it had left. Measured, not
// read from the import graph: a worker thread attaches the V8 inspector to this (main) thread and
// sets a breakpoint on every line of dist/src and dist/plugins (stepping loses its way at awaits and
// loader hooks; breakpoints by URL hold for modules loaded later too). From `run()` of
// dist/src/commands/call.js until the registry calls the tool's handler (dist/src/registry/invoke.js),
// each stop names the module it is in; consecutive stops in one module are one visit, and a visit to
// a module met before is a return. Only the project's modules count (not node_modules, not Node's):
// `modules` is all of them, `hostModules` those of dist/src, `pluginModules` those of dist/plugins.
// `loaded` lists the packages of node_modules the process imported by then (a module's URL seen).
// Run after `npm run build`:
//   node scripts/call-walk.js [--list] [<call arguments…>]
// e.g. `IMHEX_FILE=firmware.bin node scripts/call-walk.js imhex read_bytes --offset 256`. Without call
// arguments it walks `call bench echo --message hi` (the trivial plugin of bench/fixtures/trivial).
// The call runs in the current folder with HOME set to an empty temporary one (no installed
// plugins, no user config) and `--config` pointing at a temporary file that mounts the trivial
// plugin and sets log.level warn, unless the arguments give --config. --list prints the visits in order.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = path.join(root, 'bench/fixtures/trivial/index.js');
const CALL = path.join(root, 'dist/src/commands/call.js');
const INVOKE = path.join(root, 'dist/src/registry/invoke.js');

/** The line and column of `text` in `file`, for a breakpoint inside an arrow function's body. */
function locate(file, text) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes(text));
  if (line < 0) throw new Error(`no ${JSON.stringify(text)} in ${file}: build first (npm run build), or update scripts/call-walk.js`);
  return { line, column: lines[line].indexOf(text) };
}

if (isMainThread) {
  const given = process.argv.slice(2);
  const list = given[0] === '--list';
  const callArgs = list ? given.slice(1) : given;
  const work = mkdtempSync(path.join(tmpdir(), 'mcphost-walk-'));
  const config = path.join(work, '.mcprc.yaml');
  writeFileSync(config, `plugins:\n  bench:\n    module: ${FIXTURE}\nlog:\n  level: warn\n`);
  // run()'s body: its first line to the `}` that closes it (a stop on the class's own lines, which
  // runs when the module is evaluated or the command constructed, is not the walk yet).
  const runLine = locate(CALL, 'async run()').line;
  const callLines = readFileSync(CALL, 'utf8').split('\n');
  const runEnd = callLines.findIndex((l, i) => i > runLine && l === callLines[runLine].replace(/\S.*$/, '}'));
  // The handler's call, not its line: the line also runs when the arrow is created.
  const handler = locate(INVOKE, 'tool.def.handler(');
  const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { runLine, runEnd, handler } });
  const walk = new Promise((resolve, reject) => {
    worker.on('message', (m) => (m.ready ? start().catch(reject) : resolve(m)));
    worker.on('error', reject);
  });
  const call = callArgs.length > 0 ? callArgs : ['bench', 'echo', '--message', 'hi'];
  const ownConfig = call.some((a) => a === '--config' || a.startsWith('--config='));
  const start = async () => {
    process.env.HOME = work;
    process.argv = [process.argv[0], path.join(root, 'bin/run.js'), 'call', ...call, ...(ownConfig ? [] : ['--config', config])];
    const { execute } = await import('@oclif/core');
    await execute({ dir: pathToFileURL(path.join(root, 'bin/run.js')).href });
  };
  const { stops, reached, packages } = await walk;
  await worker.terminate();
  rmSync(work, { recursive: true, force: true });
  const visits = [];
  for (const m of stops) if (visits.at(-1) !== m) visits.push(m);
  const seen = new Set();
  let returns = 0;
  for (const m of visits) seen.has(m) ? returns++ : seen.add(m);
  if (list) for (const m of visits) process.stderr.write(`${m}\n`);
  const count = (prefix) => [...seen].filter((m) => m.startsWith(prefix)).length;
  const result = {
    call: call.join(' '),
    modules: seen.size,
    hostModules: count('src/'),
    pluginModules: count('plugins/'),
    visits: visits.length,
    returns,
    statements: stops.length,
    reachedHandler: reached,
    loaded: packages,
  };
  process.stderr.write(`${JSON.stringify(result)}\n`);
  process.exitCode = reached ? 0 : 1;
} else {
  const stops = [];
  const packages = new Set();
  let done = false;
  let recording = false;
  const finish = (reached) => parentPort.postMessage({ stops, reached, packages: [...packages].sort() });
  // The session alone does not keep this thread alive (not even while a post waits): the timer does.
  const timer = setTimeout(() => done || finish(false), 150_000);
  parentPort.on('close', () => clearTimeout(timer));
  const session = new inspector.Session();
  session.connectToMainThread();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
  const urls = new Map();
  const nodeModules = `${pathToFileURL(path.join(root, 'node_modules')).href}/`;
  session.on('Debugger.scriptParsed', ({ params }) => {
    urls.set(params.scriptId, params.url);
    if (recording && !done && params.url.startsWith(nodeModules)) {
      const parts = params.url.slice(nodeModules.length).split('/');
      packages.add(parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
    }
  });
  const relative = (f) => path.relative(root, f);
  session.on('Debugger.paused', ({ params }) => {
    const { location } = params.callFrames[0];
    const url = urls.get(location.scriptId) ?? params.callFrames[0].url;
    const file = url.startsWith('file:') ? relative(fileURLToPath(url)) : url;
    if (done) return void post('Debugger.resume');
    if (file === relative(CALL) && location.lineNumber > workerData.runLine && location.lineNumber < workerData.runEnd) recording = true;
    if (recording) stops.push(file.replace(/^dist\//, ''));
    if (
      file === relative(INVOKE) &&
      location.lineNumber === workerData.handler.line &&
      location.columnNumber >= workerData.handler.column
    ) {
      done = true;
      finish(recording);
    }
    void post('Debugger.resume');
  });
  await post('Debugger.enable');
  const lines = [];
  const walkDir = (dir) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walkDir(p);
      else if (d.name.endsWith('.js') && !d.name.endsWith('.bundle.js') && !d.name.includes('.chunk-')) {
        const url = pathToFileURL(p).href;
        readFileSync(p, 'utf8')
          .split('\n')
          .forEach((text, i) => /^\s*(\/\/|\/?\*|import |export \{|$)/.test(text) || lines.push({ url, lineNumber: i }));
      }
    }
  };
  walkDir(path.join(root, 'dist/src'));
  walkDir(path.join(root, 'dist/plugins'));
  lines.push({ url: pathToFileURL(INVOKE).href, lineNumber: workerData.handler.line, columnNumber: workerData.handler.column });
  for (let i = 0; i < lines.length; i += 500) await Promise.all(lines.slice(i, i + 500).map((l) => post('Debugger.setBreakpointByUrl', l)));
  parentPort.postMessage({ ready: true });
}
