// plugins.imhex.mcpCommand (or IMHEX_MCP_COMMAND) as an argv: an array is taken as is; a string is
// split on spaces by execa's parseCommandString (a space inside an argument is escaped as `\ `).
import { parseCommandString } from 'execa';

export function commandArgv(command: string | string[]): [string, ...string[]] {
  const argv = Array.isArray(command) ? command : parseCommandString(command);
  if (argv.length === 0 || argv[0] === '')
    throw new Error('plugins.imhex.mcpCommand is empty: set it to the command that runs `imhex --mcp`');
  return argv as [string, ...string[]];
}
