// The host the discover-mode figures are measured on: `mcphost serve --tool-mode discover` (the real
// binary, stdio, the SDK's client) with all five plugins and server-everything mounted — godot on the
// shared docs, pob with its Lua tools listed, imhex in stock-ImHex mode (the replica of ImHex's MCP
// server and of its `imhex --mcp` bridge, so ImHex's own tool list is what is published), unreal on
// the replicas of Epic's Unreal MCP and of the UnrealMCPServer plugin, exile on a generated snapshot.
// Used by discover.bench.js; `node bench/discover-host.js --dump FILE` writes the published tools
// (name, title, description, inputSchema) as JSON.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { generateSnapshot } from '../test/fixtures/exile/generate.js';
import { startImHexReplica } from '../test/fixtures/imhex/imhex-replica.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(repo, 'bin/run.js');
const everything = path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const shared = process.env.MCPHOST_SHARED_DATA ?? path.join(repo, '../shared/data');

/** A fixture server script as a child process, once it prints `listening <port>`. */
function fixture(script, args = []) {
  const child = spawn(process.execPath, [path.join(repo, 'test/fixtures', script), '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve({ port: Number(m[1]), stop: () => child.kill('SIGKILL') });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
}

/** Starts the host; `call(name, args)` answers a tool's result, `close()` stops everything it started. */
export async function startDiscoverHost({ mode = 'discover', extraConfig = '' } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcphost-discover-'));
  const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: path.join(dir, '.config'), XDG_CACHE_HOME: path.join(dir, '.cache') };
  delete env.MCPHOST_TOOL_MODE;
  const fw = path.join(dir, 'fw.bin');
  writeFileSync(path.join(dir, 'state.json'), JSON.stringify(generateSnapshot()));
  writeFileSync(fw, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) & 0xff)));
  const imhex = await startImHexReplica({ files: [fw], quietMs: 5 });
  const bridge = ['env', `IMHEX_REPLICA_PORT=${imhex.port}`, 'IMHEX_REPLICA_PACE_MS=0', process.execPath];
  const ums = await fixture('unreal/unreal-mcp-server.mjs');
  const epic = await fixture('unreal/epic-mcp-server.mjs', ['--register-ms', '0']);
  writeFileSync(
    path.join(dir, '.mcprc.yaml'),
    `plugins:
  godot: { docDir: ${JSON.stringify(path.join(shared, 'godot-docs/doc'))}, indexPath: ${JSON.stringify(path.join(dir, 'godot-index.json'))} }
  pob: { lua: { enabled: true } }
  imhex: { mode: imhex-mcp, mcpCommand: ${JSON.stringify([...bridge, path.join(repo, 'test/fixtures/imhex/imhex-mcp-bridge.js')])} }
  unreal: { url: "http://127.0.0.1:${ums.port}", epicUrl: "http://127.0.0.1:${epic.port}/mcp", settleMs: 300 }
  exile: { snapshot: state.json }
servers:
  everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(everything)}, stdio] }
tools: { mode: ${mode} }
log: { level: error }
${extraConfig}`,
  );
  execFileSync(process.execPath, [bin, 'trust'], { cwd: dir, env, stdio: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'serve'], cwd: dir, env, stderr: 'ignore' }));
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent;
  };
  const through = mode === 'discover' ? (name, args) => call('mcphost_call_tool', { name, arguments: args }) : call;
  // ImHex's own list replaces the one mcphost knows once ImHex is reached.
  await through('imhex_list_open_data_sources', {});
  const describe = async (name) => (await client.callTool({ name: 'mcphost_describe_tool', arguments: { name } })).isError !== true;
  // The mounted server and Epic's toolsets come up in the background.
  for (let tries = 0; ; tries++) {
    if (mode !== 'discover') {
      const names = (await client.listTools()).tools.map((t) => t.name);
      if (names.includes('everything_echo') && names.includes('unreal_SceneTools_get_current_level')) break;
    } else if ((await describe('everything_echo')) && (await describe('unreal_SceneTools_get_current_level'))) break;
    if (tries > 100) throw new Error('the mounted server or the editor replicas did not come up');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    client,
    call,
    async close() {
      await client.close();
      ums.stop();
      epic.stop();
      await imhex.close?.();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (process.argv[2] === '--dump') {
  const host = await startDiscoverHost({ mode: 'flat' });
  const { tools } = await host.client.listTools();
  writeFileSync(
    process.argv[3],
    JSON.stringify(
      tools.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema })),
      null,
      1,
    ),
  );
  console.log(`${tools.length} tools written to ${process.argv[3]}`);
  await host.close();
}
