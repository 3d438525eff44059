// `mcphost read <uri>`: the backend comes from the URI's scheme when it names one (godot://… is
// godot's), so `mcphost read godot://class/Node2D` needs no --plugins; otherwise the configured
// backends are asked. A read that fails is a failure of the backend, not of the command line.
import { isToolError } from '../backend/errors.js';
import { isInputRequired } from '../backend/result.js';
import type { ResourceContents } from '../backend/types.js';
import { UnknownNameError } from '../registry/errors.js';
import { CallFailure } from './failures.js';
import { openConfig, openHost, type OpenHostOptions } from './open.js';
import { knownBackends } from './call/target.js';
import { UsageError } from './usage-error.js';

export async function readResourceAt(options: OpenHostOptions & { uri: string }): Promise<{ contents: ResourceContents[] }> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(options.uri)?.[1];
  let only = options.only;
  if (!options.plugins && !only && scheme) {
    const { resolved } = await openConfig(options);
    if (knownBackends(resolved, options.installed, options.builtinRoot).includes(scheme)) only = [scheme];
  }
  const { registry } = await openHost({ ...options, only, strict: options.strict ?? Boolean(only) });
  let read: Awaited<ReturnType<typeof registry.readResource>>;
  try {
    read = await registry.readResource(options.uri);
  } catch (error) {
    if (error instanceof UnknownNameError) {
      const served = registry.hosts.map((h) => h.name).join(', ');
      throw new UsageError(`no resource ${options.uri} in ${served} (mcphost resources lists them)`);
    }
    if (isToolError(error)) throw error;
    throw new CallFailure({ kind: 'tool_error', code: 'READ_FAILED', message: (error as Error)?.message ?? String(error) });
  } finally {
    await registry.close();
  }
  if (isInputRequired(read)) {
    const message = `resource ${options.uri} needs answers from the client first (elicitation, sampling or roots), which this client cannot give`;
    throw new CallFailure({ kind: 'tool_error', code: 'INPUT_REQUIRED', message });
  }
  return read;
}
