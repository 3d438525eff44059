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
      'programPath',
      'requireApproved',
      'runs',
      'structured',
      'text',
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

  it('mcphost/kit (src/kit/index.ts) exports exactly the plugin toolkit', async () => {
    const runtime = Object.keys(await import('../../src/kit/index.js')).sort();
    expect(runtime).toEqual(
      [
        'ConnectError',
        'JsonLinesPeer',
        'JsonLinesProcess',
        'JsonLinesTcpClient',
        'LineBuffer',
        'NotRegularFileError',
        'PeerError',
        'ProcessError',
        'UpstreamClient',
        'checkUpstream',
        'closest',
        'createMirror',
        'createMirroredBackend',
        'describeError',
        'distance',
        'fileKind',
        'formatIssueLines',
        'globMatcher',
        'healthWaitMs',
        'issueLines',
        'liveWorkers',
        'openRegularFile',
        'readRegularFile',
        'readRegularFileSync',
        'residentBytes',
        'runWorker',
        'silentLogger',
        'stageFileSync',
        'startWorker',
        'templateVariables',
        'writeFileAtomic',
        'workerScript',
        'workerSide',
        'writeFileAtomicSync',
      ].sort(),
    );
    expect(exportedNames('src/kit/index.ts')).toEqual(
      [
        ...runtime,
        'AtomicWriteOptions',
        'FileKind',
        'IssueLine',
        'JsonLinesPeerOptions',
        'JsonLinesProcessOptions',
        'JsonLinesTcpOptions',
        'JsonMessage',
        'Mirror',
        'MirrorOptions',
        'MirroredBackend',
        'MirroredBackendOptions',
        'ProcessErrorCode',
        'ProcessStats',
        'RequestOptions',
        'RunWorkerOptions',
        'StagedFile',
        'TypedWorker',
        'UpstreamAuth',
        'UpstreamOptions',
        'UpstreamState',
        'UpstreamStatus',
        'UpstreamTarget',
        'WorkerStartOptions',
      ].sort(),
    );
  });

  it('mcphost/kit holds what it publishes: every export of src/kit/index.ts comes from inside src/kit', async () => {
    const { readFileSync } = await import('node:fs');
    const sources = [...readFileSync(path.join(ROOT, 'src/kit/index.ts'), 'utf8').matchAll(/^export .* from '([^']+)';$/gm)].map(
      (m) => m[1],
    );
    expect(sources.length).toBeGreaterThan(10);
    expect(sources.filter((s) => !s.startsWith('./'))).toEqual([]);
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
