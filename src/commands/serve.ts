import { Flags } from '@oclif/core';
import type { Override } from '../config/resolve.js';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { serveHost } from '../app/serve.js';

export default class Serve extends HostCommand {
  static override summary = 'Serve the chosen backends over MCP (stdio by default, or Streamable HTTP).';
  static override description =
    'stdio is for clients that spawn mcphost (Claude Desktop, Claude Code, Cursor). HTTP serves /mcp and /health on 127.0.0.1 unless --host says otherwise; a non-loopback host needs a bearer token.';
  static override examples = [
    '<%= config.bin %> serve --plugins godot,pob',
    '<%= config.bin %> serve --plugins godot,imhex --transport http --port 7010',
    'MCPHOST_TOKEN=secret <%= config.bin %> serve --transport http --host 0.0.0.0',
  ];

  static override flags = {
    plugins: pluginsFlag('to serve'),
    transport: Flags.option({ options: ['stdio', 'http'] as const, default: 'stdio', description: 'how clients connect' })(),
    host: Flags.string({ description: 'HTTP bind address (env MCPHOST_HOST; default 127.0.0.1)' }),
    port: Flags.integer({ description: 'HTTP port, 0 for any free one (env MCPHOST_PORT; default 7010)', min: 0, max: 65535 }),
    http: Flags.integer({ description: 'shorthand for --transport http --port N', min: 0, max: 65535 }),
    token: Flags.string({
      description:
        'bearer token HTTP clients must send (env MCPHOST_TOKEN); required on a non-loopback host unless http.clients or http.auth is set',
    }),
    'tool-mode': Flags.option({
      options: ['flat', 'discover'] as const,
      description:
        'flat: list every tool; discover: list three meta-tools (find, describe, call) and the pinned tools (env MCPHOST_TOOL_MODE)',
    })(),
    watch: Flags.boolean({
      default: true,
      allowNo: true,
      description: 'apply edits of the config files read (and of the approvals) while serving; --no-watch reads them once',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    const transport = flags.http !== undefined ? 'http' : flags.transport;
    const overrides: Override[] = [];
    if (flags.host !== undefined) overrides.push({ path: 'http.host', value: flags.host, flag: '--host' });
    const port = flags.http ?? flags.port;
    if (port !== undefined) overrides.push({ path: 'http.port', value: port, flag: flags.http !== undefined ? '--http' : '--port' });
    if (flags.token !== undefined) overrides.push({ path: 'http.token', value: flags.token, flag: '--token' });
    if (flags['tool-mode'] !== undefined) overrides.push({ path: 'tools.mode', value: flags['tool-mode'], flag: '--tool-mode' });

    const options = this.hostOptions(flags, { plugins: this.splitList(flags.plugins), overrides });
    await serveHost(options, { transport, watch: flags.watch, version: this.config.version });
    // run() returns; the open server (or stdin) keeps the process alive until shutdown.
  }
}
