import { Args } from '@oclif/core';
import { dropClient } from '../../app/named-clients.js';
import { HostCommand } from '../../cli/host-command.js';

export default class ClientsRemove extends HostCommand {
  static override summary = 'Remove a named HTTP client (a running serve stops taking its token when it restarts).';
  static override examples = ['<%= config.bin %> clients:remove ci-bot'];
  static override enableJsonFlag = true;
  static override args = { name: Args.string({ description: 'the client name', required: true }) };

  async run() {
    const { args, flags } = await this.parse(ClientsRemove);
    const options = this.hostOptions(flags);
    const removed = await dropClient({ cwd: options.cwd, env: options.env, configFile: options.configFile, name: args.name });
    if (!this.jsonEnabled()) this.log(`removed client ${removed.name} from ${removed.file}`);
    return removed;
  }
}
