import { Args } from '@oclif/core';
import { runCall } from '../cli/call-run.js';
import { CALL_FLAGS } from '../cli/flags.js';
import { HostCommand } from '../cli/host-command.js';
import { oclifFlags } from '../cli/oclif-flags.js';
import { installedPlugins } from '../cli/installed-plugins.js';

export default class Call extends HostCommand {
  static override summary = 'Call one tool: in-process, or through a running `mcphost serve` with --url.';
  static override description =
    "Flags after the tool name are generated from the tool's input schema (see `mcphost call <plugin> <tool> --help`). " +
    'A flag that names a setting of the plugin (imhex --file, exile --snapshot) sets it for this call. ' +
    "A parameter or setting named like one of the flags below goes after `--` (--url is call's only before the tool name). " +
    'Exit codes: 0 ok, 1 usage error (a bad flag or argument, an unknown tool), 2 plugin not found or failed to load, 3 invalid config, 4 backend unreachable, 5 the tool returned an error, 130 cancelled by Ctrl-C.';
  static override examples = [
    '<%= config.bin %> call imhex read_bytes --offset 256 --count 16 --file firmware.bin',
    '<%= config.bin %> call godot_search --query "move a character" --limit 5',
    'echo \'{"query":"timer"}\' | <%= config.bin %> call godot search --args -',
    '<%= config.bin %> call pob analyze_build --build build.xml --json',
    '<%= config.bin %> call --url http://127.0.0.1:7010/mcp pob_lua_load_build --build-xml @build.xml   # @: read here, sent as content',
    '<%= config.bin %> call --url http://127.0.0.1:7010/mcp pob lua_get_stats --build-id <build_id from the load>',
    '<%= config.bin %> call --as-task imhex search --pattern "4A ?? 6F" --file disk.img   # a 2026 task: tasks/get polled, Ctrl-C cancels it',
  ];
  static override usage = [
    'call <plugin> <tool> [--param value …] [--json] [--args <json|->] [--timeout <ms>]',
    'call <published_name> [--param value …]',
    'call --url <url> <published_name | plugin tool> [--param value …]',
  ];
  static override strict = false;
  static override enableJsonFlag = true;
  static override args = {
    plugin: Args.string({ description: 'plugin (backend) name, or the published tool name (imhex_read_bytes) alone' }),
    tool: Args.string({ description: 'tool name, as the plugin knows it (read_bytes) or as published (imhex_read_bytes)' }),
  };
  // Described for --help from the same table the argv is split with (the global flags included);
  // oclif does not parse them.
  static override flags = oclifFlags(CALL_FLAGS);

  async run(): Promise<void> {
    this.parsed = true;
    await runCall(this.argv, {
      installed: installedPlugins(this.config),
      log: (line) => this.log(line),
      logJson: (json) => this.logJson(json),
    });
  }
}
