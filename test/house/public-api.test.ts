// The two public entry points, `mcphost` and `mcphost/kit`, pinned name by name (values and types):
// adding or removing an export is a public-API decision made here and in the README together.
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO as ROOT } from '../helpers/paths.js';

function exportedNames(entry: string): string[] {
  const file = path.join(ROOT, entry);
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  return checker
    .getExportsOfModule(checker.getSymbolAtLocation(source)!)
    .map((s) => s.name)
    .sort();
}

describe('public entry points', () => {
  it('mcphost (src/backend/index.ts) exports exactly the contract', async () => {
    const runtime = Object.keys(await import('../../src/backend/index.js')).sort();
    expect(runtime).toEqual([
      'MissingCapabilityError',
      'NotFoundError',
      'RequestError',
      'TOOL_ERROR_CODES',
      'ToolError',
      'UnavailableError',
      'VIEW_MIME_TYPE',
      'approvalProblem',
      'codePath',
      'configPath',
      'defineBackend',
      'defineCommand',
      'definePrompt',
      'defineTool',
      'inputRequired',
      'isInputRequired',
      'isRequestError',
      'isToolError',
      'isToolErrorCode',
      'programPath',
      'requireApproved',
      'runs',
      'structured',
      'text',
      'toolErrorCode',
      'toolErrorExit',
    ]);
    expect(exportedNames('src/backend/index.ts')).toEqual(
      [
        ...runtime,
        'Backend',
        'BackendContext',
        'BackendFactory',
        'CallContext',
        'ClientCapabilities',
        'ClientInfo',
        'ClientLogLevel',
        'ClientTransport',
        'CommandDef',
        'ContentBlock',
        'ElicitAnswer',
        'ElicitParams',
        'FileAccess',
        'HealthReport',
        'InputAnswers',
        'InputRequest',
        'InputRequiredResult',
        'JsonRpcErrorCode',
        'JsonSchemaInput',
        'ListKind',
        'Listing',
        'LogLevel',
        'Logger',
        'ProgressUpdate',
        'PromptDef',
        'PromptMessage',
        'PromptResult',
        'ReadResult',
        'ResourceContents',
        'ResourceDef',
        'ResourceListing',
        'ResourceMeta',
        'ResourceSubscribe',
        'ResourceTemplateDef',
        'Root',
        'SampleAnswer',
        'SampleParams',
        'ToolAnnotations',
        'ToolDef',
        'ToolErrorCode',
        'ToolErrorName',
        'ToolHandler',
        'ToolMeta',
        'ToolResult',
        'ToolVisibility',
        'UiResourceCsp',
        'UiResourceMeta',
        'UiResourcePermissions',
        'UiToolMeta',
        'WithheldSetting',
      ].sort(),
    );
  });

  const KIT: Record<string, { runtime: string[]; types: string[] }> = {
    'src/kit/index.ts': {
      runtime: [
        'NotRegularFileError',
        'closest',
        'distance',
        'fileKind',
        'formatIssueLines',
        'issueLines',
        'liveWorkers',
        'openRegularFile',
        'readRegularFile',
        'readRegularFileSync',
        'runWorker',
        'silentLogger',
        'stageFileSync',
        'startWorker',
        'workerScript',
        'workerSide',
        'writeFileAtomic',
        'writeFileAtomicSync',
      ],
      types: ['AtomicWriteOptions', 'FileKind', 'IssueLine', 'RunWorkerOptions', 'StagedFile', 'TypedWorker', 'WorkerStartOptions'],
    },
    'src/kit/json-lines/index.ts': {
      runtime: [
        'ConnectError',
        'JsonLinesPeer',
        'JsonLinesProcess',
        'JsonLinesTcpClient',
        'LineBuffer',
        'PeerError',
        'ProcessError',
        'residentBytes',
      ],
      types: [
        'JsonLinesPeerOptions',
        'JsonLinesProcessOptions',
        'JsonLinesTcpOptions',
        'JsonMessage',
        'ProcessErrorCode',
        'ProcessStats',
        'RequestOptions',
      ],
    },
    'src/kit/upstream.ts': {
      runtime: [
        'UpstreamClient',
        'checkUpstream',
        'createMirror',
        'createMirroredBackend',
        'describeError',
        'globMatcher',
        'healthWaitMs',
        'templateVariables',
      ],
      types: [
        'Mirror',
        'MirrorOptions',
        'MirroredBackend',
        'MirroredBackendOptions',
        'UpstreamAuth',
        'UpstreamOptions',
        'UpstreamState',
        'UpstreamStatus',
        'UpstreamTarget',
      ],
    },
  };

  for (const [file, expected] of Object.entries(KIT)) {
    it(`the kit's ${file} exports exactly its part of the plugin toolkit`, async () => {
      const runtime = Object.keys(await import(`../../${file.replace(/\.ts$/, '.js')}`)).sort();
      expect(runtime).toEqual([...expected.runtime].sort());
      expect(exportedNames(file)).toEqual([...runtime, ...expected.types].sort());
    });
  }

  it('mcphost/kit holds what it publishes: every export of its entry files comes from inside src/kit', async () => {
    const { readFileSync } = await import('node:fs');
    for (const file of Object.keys(KIT)) {
      const sources = [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/^export .* from '([^']+)';$/gm)].map((m) => m[1]);
      expect(sources.length, file).toBeGreaterThan(3);
      expect(sources.filter((s) => !s.startsWith('./'))).toEqual([]);
    }
  });

  it('package.json maps both entry points to the compiled files', async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as { exports: Record<string, unknown> };
    expect(pkg.exports['.']).toEqual({ types: './dist/src/backend/index.d.ts', default: './dist/src/backend/index.js' });
    expect(pkg.exports['./kit']).toEqual({ types: './dist/src/kit/index.d.ts', default: './dist/src/kit/index.js' });
  });
});

describe('node flags', () => {
  it('bin/run.js runs node with the flags a client entry written by `connect` passes', async () => {
    const { NODE_FLAGS } = await import('../../src/app/node-flags.js');
    const { readFileSync } = await import('node:fs');
    const shebang = readFileSync(path.join(ROOT, 'bin/run.js'), 'utf8').split('\n')[0];
    expect(shebang).toBe(`#!/usr/bin/env -S node ${NODE_FLAGS.join(' ')}`);
  });
});
