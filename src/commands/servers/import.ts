import { Args, Flags } from '@oclif/core';
import { importServers } from '../../app/import-servers.js';
import { HostCommand } from '../../cli/host-command.js';
import { CLIENT_KINDS, type ClientKind } from '../../config/clients.js';

export default class ServersImport extends HostCommand {
  static override summary =
    "Copy the MCP servers Claude Code, Cursor, Claude Desktop, VS Code, Windsurf, Zed or Codex know into .mcprc's servers.";
  static override description =
    "Reads each client's project file in this folder (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .zed/settings.json, .codex/config.toml) " +
    "and its user file (~/.claude.json, ~/.cursor/mcp.json, claude_desktop_config.json, VS Code's mcp.json, ~/.codeium/windsurf/mcp_config.json, " +
    '~/.config/zed/settings.json, ~/.codex/config.toml). A name .mcprc has already is left alone; entries that start mcphost itself or are disabled are skipped. ' +
    'Writes the .mcprc mcphost finds (YAML keeps its comments), else a new .mcprc here. ' +
    "The servers of this folder's .mcp.json and .cursor/mcp.json can be called by name without importing them.";
  static override examples = ['<%= config.bin %> servers:import', '<%= config.bin %> servers:import claude-desktop --dry-run'];
  static override enableJsonFlag = true;
  static override strict = false;
  static override args = {
    client: Args.string({ description: `clients to read (default: all): ${CLIENT_KINDS.join(', ')}`, options: [...CLIENT_KINDS] }),
  };
  static override flags = { 'dry-run': Flags.boolean({ description: 'show what would be added, write nothing' }) };

  async run() {
    const { argv, flags } = await this.parse(ServersImport);
    const options = this.hostOptions(flags);
    const report = await importServers({
      cwd: options.cwd,
      env: options.env,
      configFile: options.configFile,
      clients: argv as ClientKind[],
      dryRun: flags['dry-run'],
    });
    if (!this.jsonEnabled()) {
      for (const r of report.read) this.log(`read ${r.client} ${r.file}: ${r.servers.join(', ') || 'no servers'}`);
      if (report.read.length === 0) this.log('no client config found');
      for (const s of report.skipped) this.log(`skipped ${s.name} (${s.file}): ${s.reason}`);
      if (report.present.length > 0) this.log(`already there: ${report.present.join(', ')}`);
      if (report.written) this.log(`added to ${report.file}: ${report.added.join(', ')}`);
      for (const w of report.warnings) this.logToStderr(`warning: ${w.name}: ${w.message}`);
      if (report.trustHint) this.log(report.trustHint);
      else if (Object.keys(report.entries).length > 0 && !flags['dry-run'] && report.added.length === 0 && report.present.length === 0)
        this.log(`${report.file} is not rewritten by mcphost; add under servers:\n${JSON.stringify(report.entries, null, 2)}`);
      else if (flags['dry-run']) this.log(`would add to ${report.file}:\n${JSON.stringify(report.entries, null, 2)}`);
    }
    return report;
  }
}
