// cosmiconfig's loaders, behind a module of their own so that load-file.ts imports them only for the
// files that need them (.json, .js, .cjs, .mjs, .ts): a YAML `.mcprc`, the usual case, is read
// without loading cosmiconfig at all (bench/startup.bench.js: a one-shot call's start-up).
export { defaultLoaders } from 'cosmiconfig';
