// Arguments brought to the schema the editor declared, where only one meaning is possible. Epic's
// own toolset notes tell a model to call `ObjectTools.set_properties(Component, {name: value})`
// (UMGToolSet's descriptions in tc-imba/ue-official-mcp probes/5.8.0.json), while the schema says
// `values: {type: "string"}` and the description "A JSON formatted string of the properties to set";
// given the object, the editor answers false and changes nothing. An object or array given for a
// string property that the tool documents as JSON is sent as that JSON text; anything else is sent
// as it came (the editor's answer stays the judge).

/** What a top-level property of a tool's input schema says about itself. */
interface PropertySchema {
  type?: unknown;
  description?: unknown;
}

/** The line of a tool's docstring `Args:` section that documents `name` ("values: A JSON formatted string …"). */
function argLine(toolDescription: string, name: string): string | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\s*${escaped}\\s*(?:\\([^)]*\\))?:\\s*(.+)$`, 'm').exec(toolDescription)?.[1];
}

/** True when the property is a string the tool says holds JSON. */
function holdsJson(schema: PropertySchema, toolDescription: string, name: string): boolean {
  if (schema.type !== 'string') return false;
  const own = typeof schema.description === 'string' ? schema.description : '';
  return /\bJSON\b/i.test(own) || /\bJSON\b/i.test(argLine(toolDescription, name) ?? '');
}

export interface Coerced {
  args: Record<string, unknown>;
  /** The properties sent as JSON text. */
  coerced: string[];
}

export function coerceToSchema(
  inputSchema: Record<string, unknown> | undefined,
  toolDescription: string,
  args: Record<string, unknown>,
): Coerced {
  const properties = (inputSchema?.properties ?? {}) as Record<string, PropertySchema>;
  const out: Record<string, unknown> = { ...args };
  const coerced: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    const schema = properties[name];
    if (!schema || value === null || typeof value !== 'object') continue;
    if (!holdsJson(schema, toolDescription, name)) continue;
    out[name] = JSON.stringify(value);
    coerced.push(name);
  }
  return { args: out, coerced };
}
