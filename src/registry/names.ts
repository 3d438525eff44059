// Public names on the wire: a tool keeps its name when it already carries the plugin
// (`godot_search`), otherwise it becomes `<plugin>_<tool>` (`imhex_read_bytes`).
import { TOOL_NAME } from '../backend/names.js';
import { RegistryError } from './errors.js';

/** `prefixed: false` (the section's `prefix: false`) publishes the name as the backend gives it. */
export function publicName(plugin: string, local: string, prefixed = true): string {
  const name = !prefixed || local.startsWith(`${plugin}_`) ? local : `${plugin}_${local}`;
  if (!TOOL_NAME.test(name)) {
    throw new RegistryError(`plugin ${plugin}: public name ${JSON.stringify(name)} is not a valid MCP name (1–128 of A-Z a-z 0-9 _ . -)`);
  }
  return name;
}

// The one "did you mean" lives in the kit; the registry's callers import it from here.
