// Words people use for a task → the words tools use for it, added to a query at a lower weight
// (query.ts). Two parts, both about software tools in general and written before any task set was
// read against them:
// 1. Microsoft's "Approved Verbs for PowerShell Commands" (MicrosoftDocs/PowerShell-Docs,
//    reference/docs-conceptual/developer/cmdlet/approved-verbs-for-windows-powershell-commands.md @
//    0865ac1): for each approved verb, the "do not use verbs such as …" synonyms. A synonym maps to
//    its approved verb, the word tools are named with (locate → search, select; diff → compare;
//    recalculate → update; launch → start; kill → stop). Left out: synonyms that are the usual
//    name of a different action in data tools (Print → Write: printing shows; Find, Search → Get:
//    finding is searching; Build, Allocate → New: nouns of build planners; Save → Backup; Change →
//    Rename; Jump → Skip; Begin → Enable), and ones no English task says (Cat, Dir, Telnet, Fax).
// 2. Everyday words of byte, data and arithmetic tasks the table does not cover, each with its
//    reason (binary patching overwrites bytes; a hex dump is the xxd/hexdump(1) view; …).
// Keys are lowercase words as written (before stemming: "changed" is not "change").

const POWERSHELL: Record<string, string[]> = {
  append: ['add'],
  attach: ['add'],
  concatenate: ['add'],
  insert: ['add'],
  flush: ['clear'],
  erase: ['clear', 'remove'],
  nullify: ['clear'],
  unset: ['clear'],
  duplicate: ['copy'],
  clone: ['copy'],
  replicate: ['copy'],
  read: ['get'],
  obtain: ['get'],
  dump: ['get'],
  acquire: ['get', 'read'],
  examine: ['get'],
  combine: ['join', 'merge'],
  unite: ['join'],
  associate: ['join', 'group'],
  restrict: ['lock'],
  transfer: ['move'],
  migrate: ['move'],
  create: ['new'],
  generate: ['new'],
  make: ['new'],
  discard: ['remove'],
  dispose: ['remove'],
  cut: ['remove'],
  locate: ['search', 'select'],
  find: ['search', 'select'],
  assign: ['set'],
  configure: ['set'],
  display: ['show'],
  produce: ['show'],
  separate: ['split'],
  release: ['unlock'],
  logoff: ['disconnect'],
  prompt: ['read'],
  peek: ['receive', 'read'],
  accept: ['receive'],
  broadcast: ['send'],
  put: ['send', 'write'],
  diff: ['compare'],
  compact: ['compress'],
  resample: ['convert'],
  modify: ['edit'],
  explode: ['expand'],
  uncompress: ['expand'],
  extract: ['export'],
  aggregate: ['group'],
  arrange: ['group'],
  correlate: ['group'],
  load: ['import'],
  init: ['initialize'],
  setup: ['initialize', 'install'],
  rebuild: ['initialize'],
  reinitialize: ['initialize'],
  quota: ['limit'],
  deploy: ['publish'],
  install: ['publish'],
  fix: ['restore', 'repair'],
  refresh: ['update'],
  renew: ['update'],
  recalculate: ['update'],
  reindex: ['update'],
  diagnose: ['debug', 'test'],
  calculate: ['measure'],
  determine: ['measure', 'resolve'],
  analyze: ['measure', 'test'],
  track: ['trace'],
  follow: ['trace'],
  inspect: ['trace'],
  certify: ['assert', 'confirm'],
  acknowledge: ['confirm'],
  validate: ['confirm'],
  verify: ['confirm', 'test'],
  halt: ['disable'],
  run: ['invoke'],
  recycle: ['restart'],
  launch: ['start'],
  initiate: ['start'],
  boot: ['start'],
  end: ['stop'],
  kill: ['stop'],
  terminate: ['stop'],
  cancel: ['stop'],
  post: ['submit'],
  pause: ['suspend', 'wait'],
  sleep: ['wait'],
  prevent: ['block'],
  allow: ['grant'],
  encrypt: ['protect'],
  decrypt: ['unprotect'],
};

/** Everyday task words → the words tools use, each with why. */
const EVERYDAY: Array<[string, string[], string]> = [
  ['patch', ['write', 'overwrite', 'edit'], 'binary patching overwrites bytes in place'],
  ['overwrite', ['write', 'set'], 'overwriting is writing over what is there'],
  ['poke', ['write'], 'poke: write a value at an address (BASIC, debuggers)'],
  ['modify', ['write', 'set', 'change'], 'modifying data sets or writes it'],
  ['highlight', ['select', 'mark', 'search'], 'an editor highlights a selection or the matches of a search'],
  ['mark', ['select'], 'marking a range selects it'],
  ['dump', ['hexdump', 'read', 'show'], 'a dump of bytes is the hexdump(1) / xxd view'],
  ['print', ['show', 'display', 'dump'], 'printing data shows it (not Write)'],
  ['view', ['show', 'display', 'read'], 'viewing data shows it'],
  ['grep', ['search', 'find'], 'grep searches'],
  ['occurrence', ['search', 'find', 'match'], 'the occurrences of a pattern are what a search finds'],
  ['occurrences', ['search', 'find', 'match'], 'the occurrences of a pattern are what a search finds'],
  ['compute', ['calculate', 'recalculate'], 'computing is calculating'],
  ['calculate', ['compute', 'recalculate'], 'calculating is computing'],
  ['recompute', ['recalculate', 'calculate'], 'recomputing is recalculating'],
  ['recalculate', ['calculate', 'compute'], 'recalculating calculates again'],
  ['diff', ['compare', 'difference'], 'a diff lists differences'],
  ['different', ['compare', 'difference'], 'what is different is what a comparison lists'],
  ['differs', ['compare', 'difference'], 'what differs is what a comparison lists'],
  ['changed', ['compare', 'difference', 'change'], '"what changed" between two versions asks for their differences'],
  ['versus', ['compare'], 'A versus B is a comparison'],
  ['vs', ['compare'], 'A vs B is a comparison'],
  ['add', ['sum', 'plus'], 'arithmetic: adding gives a sum'],
  ['plus', ['sum', 'add'], 'arithmetic: a plus b is their sum'],
  ['total', ['sum'], 'arithmetic: a total is a sum'],
  ['addition', ['sum', 'add'], 'arithmetic: addition gives a sum'],
  ['subtract', ['difference', 'minus'], 'arithmetic'],
  ['minus', ['difference', 'subtract'], 'arithmetic'],
  ['multiply', ['product', 'times'], 'arithmetic'],
  ['times', ['product', 'multiply'], 'arithmetic'],
  ['divide', ['quotient', 'division'], 'arithmetic'],
  ['shut', ['stop'], 'shutting down stops'],
  ['shutdown', ['stop'], 'a shutdown stops'],
  ['quit', ['stop', 'exit'], 'quitting stops'],
  ['screenshot', ['capture', 'image', 'viewport'], 'a screenshot captures the screen as an image'],
  ['snapshot', ['capture', 'record'], 'a snapshot captures a state'],
  ['delete', ['remove'], 'deleting removes'],
  ['lookup', ['get', 'search'], 'a lookup gets or searches'],
  ['execute', ['run', 'invoke'], 'executing is running'],
  ['run', ['execute'], 'running is executing'],
  ['address', ['offset'], 'an address in a file or buffer is an offset'],
  ['location', ['offset', 'position'], 'a location in data is an offset'],
  ['binary', ['file', 'data', 'bytes'], 'a binary is a file of bytes'],
  ['firmware', ['file', 'data', 'bytes'], 'a firmware image is a file of bytes'],
  ['rom', ['file', 'data', 'bytes'], 'a ROM image is a file of bytes'],
  ['executable', ['file', 'binary'], 'an executable is a binary file'],
  ['raw', ['bytes', 'hex', 'data'], 'raw data is its bytes'],
  ['load', ['open'], 'loading a file opens it'],
  ['launch', ['open', 'start'], 'launching opens or starts'],
  ['import', ['load'], "importing data loads it (the reverse of PowerShell's Load → Import)"],
];

export interface TaskWords {
  /** Word as written → words added for it. */
  readonly added: ReadonlyMap<string, readonly string[]>;
}

let built: TaskWords | undefined;

export function taskWords(): TaskWords {
  if (built) return built;
  const added = new Map<string, string[]>();
  const put = (word: string, targets: readonly string[]) => added.set(word, [...new Set([...(added.get(word) ?? []), ...targets])]);
  for (const [word, targets] of Object.entries(POWERSHELL)) put(word, targets);
  for (const [word, targets] of EVERYDAY) put(word, targets);
  return (built = { added });
}
