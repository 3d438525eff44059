import path from 'node:path';
import { Args, Flags } from '@oclif/core';
import { connectClient, entryText } from '../app/connect.js';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { CLIENT_KINDS, type ClientKind } from '../config/clients.js';

export default class Connect extends HostCommand {
  static override summary = "Add mcphost to an MCP client's config: Claude Desktop, Cursor, Claude Code, VS Code, Windsurf, Zed or Codex.";
  static override description =
    "A user-level file's entry starts this mcphost with absolute paths (node and bin/run.js); a project's file (committed, used on other machines) " +
    'gets `mcphost` from PATH and paths relative to the project. Either carries the .mcprc in use (MCPHOST_CONFIG) and every plugin setting ' +
    'that now comes from your environment; `doctor` then runs with exactly that environment and says what would still fail. ' +
    'Claude Desktop: its claude_desktop_config.json. Cursor: .cursor/mcp.json here (--global: ~/.cursor/mcp.json). Claude Code: .mcp.json here ' +
    '(--global: prints the `claude mcp add-json` command, since ~/.claude.json belongs to Claude Code). VS Code: .vscode/mcp.json here ' +
    "(--global: the user profile's mcp.json). Zed: .zed/settings.json here (--global: ~/.config/zed/settings.json). Windsurf: " +
    '~/.codeium/windsurf/mcp_config.json. Codex: ~/.codex/config.toml ($CODEX_HOME). Comments and other entries in those files are kept. ' +
    'Restart the client afterwards.';
  static override examples = [
    '<%= config.bin %> connect claude-desktop --plugins godot,pob',
    '<%= config.bin %> connect cursor -p godot --dry-run',
    '<%= config.bin %> connect claude-code -p pob --global',
    '<%= config.bin %> connect vscode -p godot',
    '<%= config.bin %> connect codex -p pob,imhex',
  ];
  static override enableJsonFlag = true;
  static override args = { client: Args.string({ description: 'the client', options: [...CLIENT_KINDS], required: true }) };
  static override flags = {
    plugins: pluginsFlag('the client gets'),
    global: Flags.boolean({ description: "Cursor, Claude Code, VS Code, Zed: the user's config instead of this project's" }),
    name: Flags.string({ description: 'the server name in the client (default mcphost)' }),
    'dry-run': Flags.boolean({ description: 'print the entry, write nothing' }),
  };

  async run() {
    const { args, flags } = await this.parse(Connect);
    const options = this.hostOptions(flags);
    const report = await connectClient({
      ...options,
      client: args.client as ClientKind,
      plugins: this.splitList(flags.plugins) ?? this.splitList(options.env.MCPHOST_PLUGINS) ?? [],
      global: flags.global,
      name: flags.name,
      dryRun: flags['dry-run'],
      node: process.execPath,
      bin: path.join(this.config.root, 'bin', 'run.js'),
    });
    if (!this.jsonEnabled()) {
      if (report.command) this.log(`run this to add it to Claude Code for every project:\n${report.command}`);
      else if (report.outcome === 'not written') this.log(`would write to ${report.file}:\n${entryText(report)}`);
      else this.log(`${report.outcome} ${report.name} in ${report.file}; restart ${report.client} to pick it up`);
      if (report.machinePaths.length > 0)
        this.logToStderr(
          `warning: ${report.machinePaths.join(', ')} in ${report.file ?? 'the entry'} hold paths of this machine outside the project: set them in .mcprc instead, relative to it`,
        );
      if (report.notOnPath)
        this.logToStderr(
          `warning: ${report.client} starts \`mcphost\` from PATH, and there is none on this PATH: install it (npm install -g, see the README's Install) or run \`npm link\` in the clone`,
        );
      for (const p of report.doctor.filter((d) => !d.ok))
        this.logToStderr(`warning: ${p.name} would not work in ${report.client}: ${p.message}`);
    }
    return report;
  }
}
