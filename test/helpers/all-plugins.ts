// A host with all five plugins and server-everything mounted, as the discover-mode tests need it:
// godot on the shared Godot docs, pob with its Lua tools listed, imhex in stock-ImHex mode (the
// replica of ImHex's MCP server, in this process, reached through the replica of its `imhex --mcp`
// bridge, which has a small file open), unreal on the two editor replicas (real processes on
// 127.0.0.1), exile on the generated snapshot.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateSnapshot } from '../fixtures/exile/generate.js';
import { startEditor, startEpic, type FakeEditor } from '../plugins/unreal/fake-editor.js';
import { SHARED_DATA } from './paths.js';
import { EVERYTHING } from '../upstream/helpers.js';
import { startImHexReplica } from '../fixtures/imhex/imhex-replica.js';
import { BRIDGE } from '../plugins/imhex/stock-helpers.js';

export interface AllPlugins {
  configFile: string;
  stop(): Promise<void>;
}

export async function allPlugins(dir: string, extra = ''): Promise<AllPlugins> {
  const editors: FakeEditor[] = [await startEditor({ real: true }), await startEpic({ registerMs: 0 })];
  const [ums, epic] = editors;
  writeFileSync(path.join(dir, 'state.json'), JSON.stringify(generateSnapshot()));
  const fw = path.join(dir, 'fw.bin');
  writeFileSync(fw, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) & 0xff)));
  const imhex = await startImHexReplica({ files: [fw], quietMs: 5 });
  const bridge = ['env', `IMHEX_REPLICA_PORT=${imhex.port}`, 'IMHEX_REPLICA_PACE_MS=0', process.execPath, BRIDGE];
  const configFile = path.join(dir, '.mcprc.yaml');
  writeFileSync(
    configFile,
    `plugins:
  godot: { docDir: ${JSON.stringify(path.join(SHARED_DATA, 'godot-docs/doc'))} }
  pob: { lua: { enabled: true } }
  imhex: { mode: imhex-mcp, mcpCommand: ${JSON.stringify(bridge)} }
  unreal: { url: ${JSON.stringify(ums.url)}, epicUrl: ${JSON.stringify(epic.url)}, settleMs: 300 }
  exile: { snapshot: state.json }
servers:
  everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING)}, stdio] }
${extra}`,
  );
  return {
    configFile,
    async stop() {
      await Promise.all([...editors.map((e) => e.stop()), imhex.close()]);
    },
  };
}
