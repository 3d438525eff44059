import { Args, Flags } from '@oclif/core';
import { listSignIns, signInTo, signOutOf } from '../app/sign-in.js';
import { UsageError } from '../app/usage-error.js';
import { browserAvailable, openBrowser } from '../cli/browser.js';
import { HostCommand } from '../cli/host-command.js';

export default class Auth extends HostCommand {
  static override summary = 'Sign in to a mounted HTTP server that asks for OAuth, list the sign-ins, or sign out.';
  static override description =
    'Prints the link to sign in (and opens a browser where there is one), waits for the sign-in to come back to ' +
    '127.0.0.1, and keeps the tokens in a file only you can read (~/.config/mcphost/oauth/); serve and call then send them ' +
    'and renew them as they expire. A server that needs signing in is reported down with this command as the fix. ' +
    'Tokens are never printed.';
  static override examples = [
    '<%= config.bin %> auth linear',
    '<%= config.bin %> auth linear --no-browser',
    '<%= config.bin %> auth --list',
    '<%= config.bin %> auth --logout linear',
  ];
  static override enableJsonFlag = true;
  static override args = { server: Args.string({ description: 'the server (a name under servers in .mcprc)' }) };
  static override flags = {
    list: Flags.boolean({ description: 'list the servers that sign in, and how each stands (never a token)' }),
    logout: Flags.boolean({ description: 'sign out: delete the tokens and revoke them at the authorization server' }),
    browser: Flags.boolean({ description: 'open the link in a browser (default: where one can open; never in CI)', allowNo: true }),
    timeout: Flags.integer({ description: 'how long to wait for the sign-in in the browser, in seconds', default: 300, min: 1 }),
  };

  async run() {
    const { args, flags } = await this.parse(Auth);
    const options = this.hostOptions(flags);
    if (flags.list) {
      if (args.server || flags.logout) throw new UsageError('--list takes neither a server nor --logout');
      const list = await listSignIns(options);
      if (!this.jsonEnabled()) {
        if (list.length === 0) this.log('no HTTP servers to sign in to (add one under servers with a url in .mcprc)');
        for (const s of list) this.log(`${s.server}  ${s.state}  ${s.message}${s.scopes ? `  scopes: ${s.scopes}` : ''}  ${s.url}`);
      }
      return list;
    }
    if (!args.server) throw new UsageError('name the server to sign in to (mcphost auth <server>), or pass --list');
    if (flags.logout) {
      const result = await signOutOf({ ...options, server: args.server });
      if (!this.jsonEnabled()) this.log(result.message);
      return result;
    }
    const open = flags.browser ?? browserAvailable(options.env);
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    try {
      const result = await signInTo({
        ...options,
        server: args.server,
        timeoutMs: flags.timeout * 1000,
        signal: controller.signal,
        onLink: async (url) => {
          // On stderr: stdout carries the result (and only JSON with --json).
          process.stderr.write(
            `Open this link to sign in to ${args.server}:\n\n  ${url.href}\n\nWaiting for the sign-in (up to ${flags.timeout} s)…\n`,
          );
          if (open && !(await openBrowser(url))) process.stderr.write('(no browser could be opened: open the link yourself)\n');
        },
      });
      if (!this.jsonEnabled()) {
        if (!result.needed) this.log(`${args.server} served without asking for a sign-in: nothing to do`);
        else
          this.log(
            `signed in to ${args.server} (${result.url})${result.scopes ? `, scopes: ${result.scopes}` : ''}; ` +
              `${result.tools} tools; ${result.refreshable ? 'renews itself' : 'not renewable: sign in again when it expires'}`,
          );
      }
      return result;
    } finally {
      process.off('SIGINT', stop);
    }
  }
}
