// `mcphost plugins:new <name>`: the files of a third-party backend package that installs as it is
// (`plugins:install`, `plugins:link`) and answers `mcphost call <name> greet` at once. Plain
// JavaScript, so nothing needs building; `mcphost` and zod are lent by the host that loads it
// (optional peer dependencies), so installing it needs no network.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './usage-error.js';

const NAME = /^[a-z][a-z0-9-]{0,39}$/;

export interface Scaffold {
  name: string;
  dir: string;
  files: string[];
}

/** Writes the package for backend `name` into `<parent>/mcphost-plugin-<name>`, which must not exist. */
export function writePluginScaffold(name: string, parent: string, taken: readonly string[]): Scaffold {
  if (!NAME.test(name)) {
    throw new UsageError(
      `Expected the plugin name to be lower-case letters, digits and dashes (up to 40, starting with a letter), got "${name}"`,
    );
  }
  if (taken.includes(name)) throw new UsageError(`"${name}" is a built-in plugin's name; choose another`);
  const dir = path.join(parent, `mcphost-plugin-${name}`);
  if (existsSync(dir)) throw new UsageError(`${dir} already exists; remove it or choose another name`);
  const files = scaffoldFiles(name);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  return { name, dir, files: Object.keys(files) };
}

function scaffoldFiles(name: string): Record<string, string> {
  const pkg = `mcphost-plugin-${name}`;
  const manifest = {
    name: pkg,
    version: '0.1.0',
    description: `An mcphost backend: ${name}`,
    type: 'module',
    files: ['backend.js', 'README.md'],
    scripts: { test: 'node --test test/' },
    oclif: {},
    mcphost: { backend: './backend.js' },
    peerDependencies: { mcphost: '*', zod: '^4.2.0' },
    peerDependenciesMeta: { mcphost: { optional: true }, zod: { optional: true } },
  };
  return {
    'package.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'backend.js': BACKEND.replaceAll('NAME', name),
    [`test/${name}.test.js`]: TEST.replaceAll('NAME', name),
    'README.md': README.replaceAll('PKG', pkg).replaceAll('NAME', name),
    '.gitignore': 'node_modules/\n*.tgz\n',
  };
}

const BACKEND = `// The NAME backend for mcphost. \`mcphost\` and \`zod\` come from the mcphost that loads it.
import * as z from 'zod';
import { defineBackend } from 'mcphost';

export default defineBackend({
  name: 'NAME',
  version: '0.1.0',
  description: 'Greets someone (made by mcphost plugins:new; say here what it serves)',
  // Its section of .mcprc (plugins.NAME), validated before any tool runs.
  configSchema: z.object({ greeting: z.string().min(1).default('hello').describe('the word greet starts with') }),
  tools: [
    {
      name: 'greet', // published as NAME_greet
      description: 'Greets someone by name, with the configured greeting.',
      input: z.object({ name: z.string().min(1).max(200).describe('who to greet') }),
      annotations: { readOnlyHint: true },
      handler: ({ name }, ctx) => \`\${ctx.config.greeting}, \${name}!\`,
    },
  ],
  health: (ctx) => ({ ok: true, message: \`greeting with "\${ctx.config.greeting}"\` }),
});
`;

const TEST = `// Calls the backend through mcphost, as a user would: \`npm test\` (mcphost on PATH, or MCPHOST_BIN
// naming its bin/run.js). The backend is named by an explicit config, so nothing needs installing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

const backend = fileURLToPath(new URL('../backend.js', import.meta.url));

function mcphost(args, config) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'NAME-test-')), '.mcprc.json');
  writeFileSync(file, JSON.stringify({ plugins: { NAME: { module: backend, ...config } } }));
  const bin = process.env.MCPHOST_BIN;
  const [command, argv] = bin ? [process.execPath, [bin, ...args]] : ['mcphost', args];
  return execFileSync(command, [...argv, '--config', file], { encoding: 'utf8', shell: !bin && process.platform === 'win32' }).trim();
}

test('greet answers with the default greeting', () => {
  assert.equal(mcphost(['call', 'NAME', 'greet', '--name', 'Ada']), 'hello, Ada!');
});

test('greet uses the greeting of the config', () => {
  assert.equal(mcphost(['call', 'NAME', 'greet', '--name', 'Ada'], { greeting: 'hi' }), 'hi, Ada!');
});
`;

const README = `# PKG

An mcphost backend: \`NAME\`. Made by \`mcphost plugins:new NAME\`.

\`\`\`sh
mcphost plugins:link .                    # while developing: every edit is picked up
mcphost call NAME greet --name Ada        # → hello, Ada!
npm test                                  # calls it through mcphost (on PATH, or MCPHOST_BIN=…/bin/run.js)
npm pack && mcphost plugins:install ./PKG-0.1.0.tgz   # or publish it and install it by name
\`\`\`

## Settings

\`\`\`yaml
plugins:
  NAME:
    greeting: hello # the word greet starts with
\`\`\`

## Tools

| tool | what it does |
|---|---|
| \`greet\` (\`--name\`) | answers \`<greeting>, <name>!\` |

\`backend.js\` is the whole backend: its settings (\`configSchema\`), its tools (each a zod \`input\`
and a \`handler\`), a \`health\` check. \`package.json\` makes it an oclif plugin (\`"oclif": {}\`) and names
the backend (\`"mcphost": { "backend": "./backend.js" }\`).
`;
