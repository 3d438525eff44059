// The shapes of names on the wire, shared by the contract check, the registry and mounted upstreams.
export const PLUGIN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** An MCP tool or prompt name. */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
