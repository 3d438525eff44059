import { Args, Flags } from '@oclif/core';
import { manageTrust } from '../app/trust.js';
import { approveServerTools } from '../app/trust-tools.js';
import { HostCommand } from '../cli/host-command.js';
import { UsageError } from '../app/usage-error.js';

export default class Trust extends HostCommand {
  static override summary = "Approve a project's config file, so the commands, modules and code it names may run.";
  static override description =
    'A .mcprc (or .mcp.json, .cursor/mcp.json) that mcphost finds by searching starts nothing until approved: not its servers, ' +
    'not its plugin modules, and a .mcprc.js is not even loaded. Approval records the file and a hash of its content in your own ' +
    'config folder; when the file changes, it needs approval again. Your own config (~/.config/mcphost/) and a file named with ' +
    '--config or MCPHOST_CONFIG need none. Without FILE: the config found here and the clients’ project files.';
  static override examples = [
    '<%= config.bin %> trust',
    '<%= config.bin %> trust .mcp.json',
    '<%= config.bin %> trust --list',
    '<%= config.bin %> trust --revoke .mcprc',
    '<%= config.bin %> trust --tools everything',
  ];
  static override enableJsonFlag = true;
  static override args = { file: Args.string({ description: 'the file to approve or revoke (default: what mcphost reads here)' }) };
  static override flags = {
    list: Flags.boolean({ description: 'list the approved files, and whether each is still as approved' }),
    revoke: Flags.boolean({ description: 'take the approval back' }),
    tools: Flags.string({
      description:
        'approve the tools this mounted server lists now: those that changed since it was approved, or are new, are served again (pinTools)',
      helpValue: '<server>',
    }),
  };

  async run() {
    const { args, flags } = await this.parse(Trust);
    if (flags.list && (flags.revoke || args.file)) throw new UsageError('--list takes neither a file nor --revoke');
    const options = this.hostOptions(flags);
    if (flags.tools !== undefined) {
      if (flags.list || flags.revoke || args.file) throw new UsageError('--tools takes a server name, and no file, --list or --revoke');
      const approval = await approveServerTools({ ...options, server: flags.tools });
      if (this.jsonEnabled()) return approval;
      for (const c of approval.changed) this.log(`approved the change of ${approval.server}'s ${c.tool}: ${c.difference.join('; ')}`);
      for (const t of approval.added) this.log(`approved ${approval.server}'s new tool ${t}`);
      this.log(`pinned ${approval.tools.length} tools of ${approval.server} as it lists them now (recorded in ${approval.store})`);
      return approval;
    }
    const action = flags.list ? 'list' : flags.revoke ? 'revoke' : 'approve';
    const report = await manageTrust({ cwd: options.cwd, env: options.env, file: args.file, action, installed: options.installed });
    if (this.jsonEnabled()) return report;
    if (action === 'list') {
      if (report.files.length === 0) this.log(`no approved files (${report.store})`);
      for (const f of report.files) {
        const state =
          f.state === 'ok' ? 'approved' : f.state === 'changed' ? 'changed since approved: run `mcphost trust` on it again' : 'gone';
        this.log(`${f.file}  ${state}${f.approvedAt ? `  (${f.approvedAt})` : ''}`);
      }
      return report;
    }
    for (const f of report.files) {
      const said = { approved: 'approved', already: 'already approved', revoked: 'revoked', 'not-approved': 'was not approved' }[
        f.state as 'approved'
      ];
      this.log(`${said}: ${f.file}${f.sha256 ? ` (sha256 ${f.sha256.slice(0, 12)}…)` : ''}`);
      for (const line of f.runs ?? []) this.log(`  may run ${line}`);
    }
    if (report.files.some((f) => f.state === 'approved' || f.state === 'revoked')) this.log(`recorded in ${report.store}`);
    return report;
  }
}
