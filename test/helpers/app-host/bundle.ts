// Builds the host page and the sandbox proxy for the browser (esbuild, in memory): each is one
// script, with ext-apps' app-bridge and the SDK client bundled in, served inline.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface PageScripts {
  host: string;
  sandbox: string;
}

let built: Promise<PageScripts> | undefined;

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [path.join(here, 'page', entry)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/** Built once per test file (a worker process), reused by every host it opens. */
export function pageScripts(): Promise<PageScripts> {
  built ??= Promise.all([bundle('host.ts'), bundle('sandbox.ts')]).then(([host, sandbox]) => ({ host, sandbox }));
  return built;
}
