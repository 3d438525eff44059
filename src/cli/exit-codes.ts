// One table of exit codes for every command (documented in the README).
export const Exit = {
  OK: 0,
  /** Bad flags or arguments, unknown tool, unknown command. */
  USAGE: 1,
  /** A plugin was not found, failed to load, or broke the Backend contract. */
  PLUGIN: 2,
  /** The configuration (.mcprc, environment, flags) is invalid. */
  CONFIG: 3,
  /** A backend could not be reached or started. */
  UNAVAILABLE: 4,
  /** The tool ran and returned an error. */
  TOOL_ERROR: 5,
} as const;

export type ExitCode = (typeof Exit)[keyof typeof Exit];
