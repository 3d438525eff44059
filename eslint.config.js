// Lint the shipped code. Two kinds of rule:
// - stdout belongs to the MCP protocol, so nothing in src/ or plugins/ may write to the console
//   (diagnostics go through the stderr logger);
// - the direction of imports (README "Layout"): a plugin reaches the host only through its two
//   public entry points, `src/backend/index.js` (mcphost) and `src/kit/index.js` (mcphost/kit), and
//   never another plugin; nothing in src/ imports a plugin; the core never imports the CLI;
//   a command (src/commands/) reaches the core only through src/app (docs/internals.md "Layout");
// - nothing under src/ is named for a plugin (src/commands/exile/…): a plugin's commands get their
//   CLI from their schema (src/cli/plugin-command.ts), so the host needs no file per plugin.
import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const ENTRY_POINTS = 'src/(backend/index|kit/index|kit/json-lines/index|kit/upstream)\\.js$';
const noPlugins = { group: ['**/plugins/**'], message: 'src/ never imports a plugin: reach it through the loaded backend.' };
const noCli = {
  group: ['**/cli/**', '**/commands/**'],
  message: 'The core (registry, loader, config, app, server, upstream, kit, lib, backend, discover, metrics, audit) never imports the CLI.',
};

// The built-in plugins, as the loader finds them (folders of plugins/; `_template` is not one).
const PLUGIN_NAMES = readdirSync(new URL('./plugins/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .map((d) => d.name);

/** A file `depth` folders below its plugin's folder: `../` × (depth+1) is another plugin, × (depth+2) the repository. */
function pluginBlock(depth) {
  const up = (n) => `(\\.\\./){${n}}`;
  return {
    files: [`plugins/*/${'*/'.repeat(depth)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: `^${up(depth + 1)}(?!\\.\\./)`, message: 'A plugin never imports another plugin.' },
            {
              regex: `^${up(depth + 2)}(?!${ENTRY_POINTS})`,
              message:
                'A plugin imports the host only through src/backend/index.js (mcphost) and the kit: src/kit/index.js (mcphost/kit), src/kit/json-lines/index.js, src/kit/upstream.js.',
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'coverage/**'] },
  {
    files: ['src/**/*.ts', 'plugins/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended, prettier],
    rules: {
      'no-console': 'error',
      // Prettier wraps code at 140 but leaves long strings and comments alone; this catches the rest.
      'max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [noPlugins] }] } },
  {
    files: ['src/{registry,loader,config,app,server,upstream,kit,lib,backend,discover,metrics,audit}/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noPlugins, noCli] }] },
  },
  {
    // The kit is published to third-party plugins (mcphost/kit): it may stand only on the contract,
    // so that a plugin importing it loads no part of the host.
    files: ['src/kit/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noPlugins,
            noCli,
            {
              group: ['registry', 'loader', 'config', 'app', 'server', 'upstream', 'lib', 'discover', 'metrics'].map(
                (room) => `**/${room}/**`,
              ),
              message: 'The kit imports only the kit and the contract (src/backend).',
            },
          ],
        },
      ],
    },
  },
  {
    // The commands are thin (docs/internals.md "Layout"): a command parses its flags, asks src/app for
    // its use case and renders the answer, so it imports only src/app, src/cli and packages. Two
    // things from elsewhere are allowed, each because a copy in src/app would give it a second address:
    // a type-only import (types load nothing and decide nothing), and CLIENT_KINDS of config/clients.js,
    // the choices of `connect`'s and `servers:import`'s argument, which oclif needs when it declares
    // the command, before any use case runs.
    files: ['src/commands/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noPlugins,
            {
              // plugins/ is noPlugins' to refuse (one message, not two).
              regex: '^\\.{1,2}/(?!(\\.\\./)*(app|cli|plugins)/)(?!(\\.\\./)*config/clients\\.js$)',
              allowTypeImports: true,
              message:
                'A command reaches the core through src/app: give its use case a function there (types may be imported from anywhere with `import type`).',
            },
            {
              regex: '^(\\.\\./)+config/clients\\.js$',
              allowImportNames: ['CLIENT_KINDS'],
              allowTypeImports: true,
              message:
                "From config/clients.js a command takes only CLIENT_KINDS (its argument's choices) and types; the rest is src/app's.",
            },
            { group: ['mcphost', 'mcphost/**'], message: 'A command imports the host by relative path, through src/app.' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          // no-restricted-imports does not see import(): the same rule for the modules a command loads late.
          selector: 'ImportExpression[source.value=/^\\.{1,2}\\x2F(?!(\\.\\.\\x2F)*(app|cli)\\x2F)/]',
          message: 'A command reaches the core through src/app, also by import(): load the src/app module instead.',
        },
        {
          selector: "ImportExpression[source.type!='Literal']",
          message: "A command's import() names its module as a string literal, so that the layer rule can check it.",
        },
      ],
    },
  },
  ...[0, 1, 2, 3, 4, 5].map(pluginBlock),
  {
    files: PLUGIN_NAMES.flatMap((name) => [`src/**/${name}/**/*.ts`, `src/**/${name}.ts`, `src/**/${name}-*.ts`]),
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program',
          message:
            "src/ names no plugin: a plugin's command gets its CLI from its input schema (Backend.commands), its code lives in plugins/.",
        },
      ],
    },
  },
);
