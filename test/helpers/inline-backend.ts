// A backend handed to the registry directly (no config file, no loader): what tests of the registry
// and the server need, typed as the loader's result.
import type { Backend } from '../../src/backend/index.js';
import type { LoadedBackend } from '../../src/loader/load.js';

export function inlineBackend(name: string, backend: Backend, location = 'inline'): LoadedBackend {
  return { name, backend, config: {}, sources: new Map(), section: {}, origin: { kind: 'module', location } };
}
