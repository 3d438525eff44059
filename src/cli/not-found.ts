// oclif hook for a command that does not exist: a usage error (exit 1, as every other usage error)
// with the closest commands, instead of oclif's exit 2 — 2 means "a plugin failed" in mcphost's table.
// (@oclif/plugin-not-found does the suggesting too, but exits 127 and, on a terminal, offers to run
// its guess: a different command than the one typed.) An id `<plugin>:<command>` outside the host's
// topics is a plugin's command (Backend.commands): it runs from here, its CLI made from its schema.
import type { Hook } from '@oclif/core';
import { pluginCommandId, runPluginCommandCli } from './plugin-command.js';
import { closest, distance } from '../kit/closest.js';
import { Exit } from './exit-codes.js';

const hook: Hook<'command_not_found'> = async function (opts) {
  const { bin, topicSeparator } = opts.config;
  const target = pluginCommandId(opts.id);
  if (target && !opts.config.findTopic(target.plugin)) return runPluginCommandCli(opts.id, opts.argv ?? [], opts.config);
  const shown = (id: string) => id.replaceAll(':', topicSeparator);
  const visible = opts.config.commands.filter((c) => !c.hidden).flatMap((c) => [c.id, ...c.aliases]);
  // A typo of a whole id (servers:imprt) before the ids it merely starts with (servers, serve).
  const typos = visible.filter((c) => distance(c.toLowerCase(), opts.id.toLowerCase()) <= 2);
  typos.sort((a, b) => distance(a, opts.id) - distance(b, opts.id));
  const near = [...new Set([...typos, ...closest(opts.id, visible, 2)])].slice(0, 2);
  const message =
    `unknown command ${shown(opts.id)}` +
    (near.length ? `; did you mean ${near.map((n) => `${bin} ${shown(n)}`).join(' or ')}?` : '') +
    ` (${bin} --help lists the commands)`;
  const argv = opts.argv ?? [];
  const dashes = argv.indexOf('--');
  if (argv.slice(0, dashes === -1 ? undefined : dashes).includes('--json'))
    process.stdout.write(`${JSON.stringify({ error: { message, exit: Exit.USAGE } }, null, 2)}\n`);
  else process.stderr.write(`Error: ${message}\n`);
  this.exit(Exit.USAGE);
};

export default hook;
