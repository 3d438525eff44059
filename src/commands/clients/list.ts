import { listClients } from '../../app/named-clients.js';
import { HostCommand } from '../../cli/host-command.js';

export default class ClientsList extends HostCommand {
  static override summary = 'List the named HTTP clients of the config mcphost reads here: tools, limits, subjects (never a token).';
  static override examples = ['<%= config.bin %> clients:list', '<%= config.bin %> clients:list --json'];
  static override enableJsonFlag = true;

  async run() {
    const { flags } = await this.parse(ClientsList);
    const options = this.hostOptions(flags);
    const report = await listClients({ cwd: options.cwd, env: options.env, configFile: options.configFile });
    if (this.jsonEnabled()) return report;
    if (report.withheld) this.log(`http.clients of ${report.file} is not applied: approve the file first (mcphost trust ${report.file})`);
    if (report.clients.length === 0)
      this.log(`no named clients${report.file ? ` in ${report.file}` : ''} (add one: mcphost clients:add NAME)`);
    for (const c of report.clients) {
      const who = [
        c.token === 'none' ? '' : `token: ${c.token}`,
        c.subjects.length ? `subjects: ${c.subjects.join(',')}` : '',
        c.scopes.length ? `scopes: ${c.scopes.join(',')}` : '',
      ]
        .filter(Boolean)
        .join('; ');
      const tools = `tools: ${c.tools.allow.join(',')}${c.tools.deny.length ? ` but not ${c.tools.deny.join(',')}` : ''}`;
      this.log(`${c.name}  ${who}  ${tools}  limits: ${JSON.stringify(c.limits)}`);
    }
    return report;
  }
}
