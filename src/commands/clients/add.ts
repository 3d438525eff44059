import { Args, Flags } from '@oclif/core';
import { addClient } from '../../app/named-clients.js';
import { HostCommand } from '../../cli/host-command.js';

export default class ClientsAdd extends HostCommand {
  static override summary =
    'Add a named HTTP client: prints a fresh random token once and writes only its hash (http.clients.<name>.token).';
  static override description =
    'Writes to your own config (~/.config/mcphost/config.yaml), or to the file named with --config. The client sends ' +
    'Authorization: Bearer <token>; give it tools, backends, limits, subjects or scopes under http.clients.<name> (see the README, "Sharing one mcphost").';
  static override examples = ['<%= config.bin %> clients:add ci-bot', '<%= config.bin %> clients:add ci-bot --rotate'];
  static override enableJsonFlag = true;
  static override args = { name: Args.string({ description: 'the client name (letters, digits, _ . -)', required: true }) };
  static override flags = { rotate: Flags.boolean({ description: 'give a client that exists a new token (the old one stops working)' }) };

  async run() {
    const { args, flags } = await this.parse(ClientsAdd);
    const options = this.hostOptions(flags);
    const added = await addClient({
      cwd: options.cwd,
      env: options.env,
      configFile: options.configFile,
      name: args.name,
      rotate: flags.rotate,
    });
    if (this.jsonEnabled()) return added;
    this.log(`${added.rotated ? 'new token for' : 'added'} client ${added.name} in ${added.file} (its hash only)`);
    this.log(`token (shown this once): ${added.token}`);
    return added;
  }
}
