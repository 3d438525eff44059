// Placeholder until upstream mounting lands (issue: upstream MCP servers).
import type { Backend } from '../backend/types.js';
import type { UpstreamServerConfig } from '../config/schema.js';
import { PluginLoadError } from '../loader/errors.js';

export function createUpstreamBackend(name: string, _server: UpstreamServerConfig, _env: NodeJS.ProcessEnv): Backend {
  throw new PluginLoadError(name, `servers.${name}: mounting upstream servers is not implemented yet`);
}
