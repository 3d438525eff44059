// Every code a tool error carries, in one table: what it means and the exit code `mcphost call`
// gives it (docs/reference.md, "Tool error codes", is this table). A client reads the code in the
// error result's `_meta['mcphost/error'].code`; a handler picks one by throwing
// `new ToolError(message, { code })`, and says anything finer in `data` (an HTTP status, which
// field, PoB's own words): the code is for deciding what to do next, `data` for the details.
// A code from across a boundary (a worker's message, a Lua server, another server's result) goes
// through `toolErrorCode()`, and so does a thrown ToolError's in the registry: a code that is not in
// the table reaches no client (it is a TOOL_ERROR).

/** Exit codes of a failed call (src/cli/exit-codes.ts: 1 usage, 4 unavailable, 5 tool error). */
type CallExit = 1 | 4 | 5;

const codes = <T extends Record<string, { exit: CallExit; means: string }>>(table: T) => table;

export const TOOL_ERROR_CODES = codes({
  // Any tool
  INVALID_ARGUMENTS: { exit: 1, means: "the tool's input schema refused the arguments (the host checks them before the handler runs)" },
  INVALID_ARGUMENT: {
    exit: 1,
    means: 'the handler found an argument wrong that its schema could not check (a range that depends on the file, a name that must exist)',
  },
  NOT_FOUND: { exit: 5, means: 'what the call names (a file, a record) does not exist' },
  PATH_NOT_ALLOWED: { exit: 5, means: 'a path outside the files roots a client over HTTP may name' },
  UNAVAILABLE: { exit: 4, means: 'the backend cannot be reached or started: the message says what to start or configure' },
  SHUTTING_DOWN: { exit: 4, means: 'mcphost is shutting down' },
  TIMEOUT: { exit: 5, means: "the call ran past its deadline (the tool's timeout or the client's)" },
  CANCELLED: { exit: 5, means: 'the client cancelled the call' },
  RESULT_TOO_LARGE: { exit: 5, means: 'the answer was over the result size or depth cap' },
  TOOL_ERROR: { exit: 5, means: 'the tool ran and failed (the default code)' },
  // The host's own
  UNKNOWN_TOOL: { exit: 1, means: "discover mode's mcphost_call_tool was given a name no tool has" },
  INVALID_OUTPUT: { exit: 5, means: "the handler's structured output does not match the tool's output schema" },
  TASK: { exit: 5, means: 'the tool became a task, which this client cannot follow' },
  TASK_FAILED: { exit: 5, means: 'the task a tool became failed on the server (its own code when it is one of this table)' },
  INPUT_ROUNDS: { exit: 5, means: 'the tool asked the client for input too many times without finishing' },
  INPUT_REQUIRED: { exit: 5, means: 'reading the resource needs input from a client, and `mcphost read` cannot give it' },
  READ_FAILED: { exit: 5, means: 'a resource read or prompt failed' },
  // Mounted servers and other remote ends
  INVALID_RESULT: { exit: 5, means: "a mounted server's result failed the MCP schema" },
  HTTP_ERROR: { exit: 5, means: 'an HTTP server answered an error status (`data.status`)' },
  BAD_RESPONSE: { exit: 5, means: 'the remote end (ImHex, the Unreal Editor) answered something that is not its protocol' },
  // imhex
  EIO: { exit: 5, means: 'writing the file failed' },
  ESTALE: { exit: 5, means: 'the file changed while it was being read' },
  FILE_REPLACED: { exit: 5, means: 'the file was replaced while it was being read' },
  // exile
  EXPR_SYNTAX: { exit: 1, means: 'the expression does not parse (`data.position`)' },
  EXPR_EVAL: { exit: 5, means: 'the expression parses but cannot be evaluated (`data.position`)' },
  NOT_IN_SNAPSHOT: { exit: 5, means: 'it needs the live process or data that was not recorded' },
  INVALID_TARGET: { exit: 1, means: 'a snapshot path or type that does not resolve' },
  AMBIGUOUS: { exit: 1, means: 'a name that matches several types (`data.candidates`)' },
  TIME_BUDGET: { exit: 5, means: 'the query ran past its time budget' },
  LIMIT_EXCEEDED: { exit: 5, means: 'the query went past a size or memory limit' },
  REMOTE_ERROR: { exit: 5, means: 'the game side reported an error while recording' },
  HUD_ERROR: { exit: 5, means: 'the HUD reported an error' },
  // unreal
  DECLINED: { exit: 5, means: 'the user declined the change in the Editor' },
  // pob
  BAD_SHARE_CODE: { exit: 1, means: 'not a share code (not base64, or not zlib data)' },
  BAD_XML: { exit: 1, means: 'not XML (with line and column)' },
  NOT_A_BUILD: { exit: 1, means: 'XML whose root is not `<PathOfBuilding>`' },
  BAD_BUILD: { exit: 1, means: 'neither build XML, a share code nor a build file' },
  TOO_LARGE: { exit: 1, means: 'an input over its size limit' },
  WRONG_GAME: { exit: 1, means: 'a build of the other game' },
  UNKNOWN_NODES: { exit: 1, means: 'passive tree node ids PoB does not know' },
  BAD_CONFIG: { exit: 1, means: "configuration values PoB's option list refuses (nothing changed)" },
  NO_BUILD: { exit: 5, means: 'this client has no build loaded' },
  UNKNOWN_BUILD: { exit: 5, means: 'a `build_id` the build store does not hold' },
  NO_SAVED_STATS: { exit: 5, means: 'the build holds no saved stats to verify' },
  LOAD_FAILED: { exit: 5, means: 'PoB refused the build (its own message)' },
  EXPORT_FAILED: { exit: 5, means: 'PoB gave no build back' },
  LUA_ERROR: { exit: 5, means: 'an error inside PoB (its traceback goes to the log)' },
  LUA_TIMEOUT: { exit: 5, means: 'PoB did not answer within the budget (the worker was stopped)' },
  LUA_EXITED: { exit: 5, means: 'PoB exited during the call' },
  BUSY: { exit: 5, means: 'PoB is busy: too many calls are waiting; retry in a moment' },
  POB_ERROR: { exit: 5, means: "the pob-api fork's `{ok: false, error}`" },
  UNKNOWN_ACTION: { exit: 5, means: 'the pob-api fork lacks the action' },
});

/** A code of the table. */
export type ToolErrorName = keyof typeof TOOL_ERROR_CODES;

/**
 * A JSON-RPC error code another server answered, passed on as it is (a mounted MCP server, ImHex,
 * the Unreal Editor): `-32602` (invalid params) exits 1 like INVALID_ARGUMENT, any other 5.
 */
export type JsonRpcErrorCode = number;

export type ToolErrorCode = ToolErrorName | JsonRpcErrorCode;

const JSON_RPC_INVALID_PARAMS = -32602;

export function isToolErrorCode(value: unknown): value is ToolErrorCode {
  return (
    (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && Object.hasOwn(TOOL_ERROR_CODES, value))
  );
}

/** A code read from across a boundary: itself when it is one, else `fallback`. */
export function toolErrorCode(value: unknown, fallback: ToolErrorName = 'TOOL_ERROR'): ToolErrorCode {
  return isToolErrorCode(value) ? value : fallback;
}

/** The exit code `mcphost call` gives a tool error of this code. */
export function toolErrorExit(code: ToolErrorCode): CallExit {
  if (typeof code === 'number') return code === JSON_RPC_INVALID_PARAMS ? 1 : 5;
  return Object.hasOwn(TOOL_ERROR_CODES, code) ? TOOL_ERROR_CODES[code].exit : 5;
}
