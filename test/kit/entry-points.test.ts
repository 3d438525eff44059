// The kit's subpaths (issue 37): a plugin that uses only files and workers imports `mcphost/kit`
// and loads no MCP module and no child-process library; the MCP client is `mcphost/kit/upstream`,
// JSON lines `mcphost/kit/json-lines`. Measured on the built files in a fresh Node process, with
// the module log the call fast-path test uses (every ES and CommonJS module loaded).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURES, REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir();
let n = 0;

/** The files a fresh process loads for `import(<entry>)`, and the entry's export names. */
async function loads(entry: string): Promise<{ files: string[]; names: string[] }> {
  const log = path.join(t.dir, `modules-${++n}.log`);
  const url = pathToFileURL(path.join(REPO, 'dist', entry)).href;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--import',
      pathToFileURL(path.join(FIXTURES, 'module-log/register.mjs')).href,
      '--input-type=module',
      '-e',
      `console.log(JSON.stringify(Object.keys(await import(${JSON.stringify(url)}))))`,
    ],
    { env: { ...process.env, MODULE_LOG: log } },
  );
  const files = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (line.startsWith('file:') ? fileURLToPath(line) : line));
  return { files, names: JSON.parse(stdout) as string[] };
}

const mcp = (files: string[]) => files.filter((f) => /node_modules\/@modelcontextprotocol\/|dist\/src\/kit\/mcp\//.test(f));
const childProcessLibrary = (files: string[]) => files.filter((f) => /node_modules\/execa\//.test(f));

describe('mcphost/kit entry points', () => {
  it('mcphost/kit (files, workers, writes) loads no MCP module and no execa', async () => {
    const { files, names } = await loads('src/kit/index.js');
    expect(names).toEqual(expect.arrayContaining(['readRegularFile', 'runWorker', 'writeFileAtomic', 'closest']));
    expect(files.some((f) => f.endsWith(path.join('dist', 'src', 'kit', 'worker.js')))).toBe(true); // the log works
    expect(mcp(files)).toEqual([]);
    expect(childProcessLibrary(files)).toEqual([]);
  });

  it('mcphost/kit/json-lines loads no MCP module', async () => {
    const { files, names } = await loads('src/kit/json-lines/index.js');
    expect(names).toEqual(expect.arrayContaining(['JsonLinesProcess', 'JsonLinesTcpClient']));
    expect(files.some((f) => f.endsWith(path.join('dist', 'src', 'kit', 'json-lines', 'process.js')))).toBe(true);
    expect(mcp(files)).toEqual([]);
  });

  it('mcphost/kit/upstream is where the MCP client is, and the legacy index still has every name', async () => {
    const upstream = await loads('src/kit/upstream.js');
    expect(upstream.names).toEqual(expect.arrayContaining(['UpstreamClient', 'createMirroredBackend']));
    expect(mcp(upstream.files).length).toBeGreaterThan(0);
    const legacy = await loads('src/kit/legacy.js');
    const all = [...(await loads('src/kit/index.js')).names, ...(await loads('src/kit/json-lines/index.js')).names, ...upstream.names];
    expect(legacy.names.sort()).toEqual([...new Set(all)].sort());
  });

  it('package.json and the plugin resolve hook map each subpath to its built file', async () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
    expect(pkg.exports['./kit/json-lines'].default).toBe('./dist/src/kit/json-lines/index.js');
    expect(pkg.exports['./kit/upstream'].default).toBe('./dist/src/kit/upstream.js');
    expect(pkg.exports['./kit/legacy'].default).toBe('./dist/src/kit/legacy.js');
  });
});
