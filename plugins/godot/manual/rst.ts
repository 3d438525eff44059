// Reads one page of the Godot manual (godotengine/godot-docs, reStructuredText) into the places it
// ties its words to the API: a sentence with a `:ref:` role (`:ref:`add_child() <class_Node_method_add_child>``)
// or an inline literal that names API (``Input.is_action_pressed()``, ``NOTIFICATION_WM_CLOSE_REQUEST``),
// and a GDScript sample that calls it (`get_tree().create_timer(1.0)`), each with the page's title
// and the title of the section it stands in. Only the prose and GDScript are read: C# and other
// languages' tabs, images and tables of contents are skipped. Nothing here knows the reference:
// which symbol a name means is decided later (resolve.ts).

/** A reference to the API as the page writes it. */
export type ManualTarget =
  /** A `:ref:` label: `class_Node`, `class_Node_method_add_child`, `class_Object_private_method__get_property_list`. */
  | { label: string }
  /**
   * A name in a literal or a sample: `Input.is_action_pressed`, `add_child`, `Timer`, `KEY_T`; `scope`:
   * classes the sample extends; `pageOnly`: a member of the page's own classes or nothing (a section
   * titled "One Shot" on a page about GPUParticles2D is its `one_shot`).
   */
  | { name: string; scope?: string[]; pageOnly?: boolean };

interface ManualAnchor {
  target: ManualTarget;
  /** The sentence (or the sample's introduction and comments). */
  text: string;
  section: string;
}

export interface ManualPage {
  title: string;
  anchors: ManualAnchor[];
  /** Class names the page refers to (labels, literals, `extends`): the context for bare member names. */
  classes: Set<string>;
}

const HEADING_RULE = /^([=\-~^"'`*#+_.:])\1{2,}\s*$/;
const ROLE_REF = /:ref:`([^`]*?)`/g;
const LITERAL = /``([^`]+)``/g;
/** `Class.member`, `member()`, `Class`, CONSTANT_NAME, `_ready`: what a literal naming API looks like. */
const API_NAME = /^@?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?(?:\(.*\))?$/;
const CALL = /(?:\b([A-Z@][A-Za-z0-9_]*)\.)?(?<![\w@$])([a-z_][a-z0-9_]*)\s*\(/g;
const QUALIFIED = /\b([A-Z@][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)\b/g;
const EXTENDS = /^\s*extends\s+([A-Za-z_][A-Za-z0-9_]*)/m;
const NEW = /\b([A-Z][A-Za-z0-9_]*)\.new\(/g;
/** Calls in samples that say nothing about a particular symbol (GDScript keywords and generic helpers). */
const GENERIC = new Set([
  'print',
  'str',
  'len',
  'range',
  'int',
  'float',
  'bool',
  'new',
  'func',
  'if',
  'elif',
  'for',
  'while',
  'return',
  'super',
  'match',
  'assert',
  'preload',
  'load',
]);
const MAX_SAMPLE_TARGETS = 12;
/** Directives whose body is not prose. */
const SKIPPED = /^\.\.\s+(?:image|figure|toctree|raw|only|video|graphviz|csv-table|list-table|include|index|seealso|youtube)::/;
const CODE = /^\.\.\s+(?:code-tab|code-block|code|highlight|literalinclude)::\s*(\S*)/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The words of a label, for a `:ref:` without its own text: class_Node_method_add_child → Node.add_child. */
function labelText(label: string): string {
  const m = /^class_([^_]+)(?:_(?:private_)?(?:method|property|signal|constant|annotation|theme_\w+?)_(.+))?$/i.exec(label);
  if (m) return m[2] ? `${m[1]}.${m[2]}` : m[1];
  return label.replace(/^doc_/, '').replace(/_/g, ' ');
}

/** A sentence as a person reads it: roles by their text, literals and emphasis unwrapped. */
function plainRst(text: string): string {
  return text
    .replace(ROLE_REF, (_, body: string) => {
      const m = /^(.*?)\s*<([^>]+)>$/s.exec(body);
      return m ? m[1] || labelText(m[2]) : labelText(body);
    })
    .replace(/:[a-z]+:`([^`]*)`/g, '$1')
    .replace(/`([^`<]*?)\s*<[^>]*>`__?/g, '$1')
    .replace(/``([^`]*)``/g, '$1')
    .replace(/\*\*?([^*]+)\*\*?/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

function sentences(paragraph: string): string[] {
  // Roles and literals may hold dots; split only where a sentence ends outside them.
  const out: string[] = [];
  let start = 0;
  let inTick = false;
  for (let i = 0; i < paragraph.length; i++) {
    const c = paragraph[i];
    if (c === '`') inTick = !inTick;
    else if (
      !inTick &&
      (c === '.' || c === '!' || c === '?') &&
      /\s/.test(paragraph[i + 1] ?? ' ') &&
      /[a-z)\]"'0-9]/i.test(paragraph[i - 1] ?? '')
    ) {
      out.push(paragraph.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  if (paragraph.slice(start).trim()) out.push(paragraph.slice(start).trim());
  return out;
}

function targetsOf(sentence: string): ManualTarget[] {
  const out: ManualTarget[] = [];
  for (const m of sentence.matchAll(ROLE_REF)) {
    const label = /<([^>]+)>\s*$/.exec(m[1])?.[1] ?? m[1];
    if (/^class_/i.test(label)) out.push({ label: label.trim() });
  }
  for (const m of sentence.matchAll(LITERAL)) {
    const lit = m[1].trim();
    if (API_NAME.test(lit) && !/^(?:res|user):/.test(lit)) out.push({ name: lit.replace(/\(.*\)$/, '') });
  }
  return out;
}

function comments(code: string): string {
  const out: string[] = [];
  for (const line of code.split('\n')) {
    const at = line.indexOf('#');
    if (at >= 0) out.push(line.slice(at + 1).trim());
  }
  return out.filter(Boolean).join('. ');
}

/** Functions a sample defines (`func save_game():`): its own, not the engine's, unless they are callbacks (`_ready`). */
const DEFINED = /\bfunc\s+([A-Za-z_][A-Za-z0-9_]*)/g;

function sampleTargets(code: string): ManualTarget[] {
  const scope = EXTENDS.exec(code)?.[1];
  const defined = [...code.matchAll(DEFINED)].map((m) => m[1]);
  const own = new Set(defined);
  // A defined `_input`, `_physics_process`: an engine callback the sample implements, which is API.
  const names = new Set<string>(defined.filter((name) => name.startsWith('_') && !name.startsWith('_on_')));
  for (const m of code.matchAll(NEW)) names.add(m[1]);
  for (const m of code.matchAll(QUALIFIED)) names.add(`${m[1]}.${m[2]}`);
  for (const m of code.matchAll(CALL)) if (!GENERIC.has(m[2]) && !m[1] && !own.has(m[2]) && !m[2].startsWith('_on_')) names.add(m[2]);
  if (scope) names.add(scope);
  return [...names].slice(0, MAX_SAMPLE_TARGETS).map((name) => (scope ? { name, scope: [scope] } : { name }));
}

/** The anchors of one page. */
export function parseRstPage(source: string): ManualPage {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const page: ManualPage = { title: '', anchors: [], classes: new Set() };
  let section = '';
  let lead = '';
  let paragraph: string[] = [];
  /** The member a short section title may name (`One Shot` → one_shot), for the section's first paragraph. */
  let titled: string | undefined;
  const flush = () => {
    if (paragraph.length === 0) return;
    const text = paragraph.join(' ');
    paragraph = [];
    for (const sentence of sentences(text)) {
      const plain = plainRst(sentence);
      for (const target of targetsOf(sentence)) page.anchors.push({ target, text: plain, section });
      if (titled) page.anchors.push({ target: { name: titled, pageOnly: true }, text: plain, section });
      lead = plain;
    }
    titled = undefined;
  };
  const sample = (code: string) => {
    const around = [lead, comments(code)].filter(Boolean).join(' ');
    for (const target of sampleTargets(code)) page.anchors.push({ target, text: around, section });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    // A heading: a line of text underlined (and maybe overlined) with one punctuation character.
    if (
      trimmed &&
      !HEADING_RULE.test(trimmed) &&
      HEADING_RULE.test(lines[i + 1]?.trim() ?? '') &&
      lines[i + 1].trim().length >= Math.min(trimmed.length, 3) &&
      indentOf(line) === 0
    ) {
      flush();
      section = plainRst(trimmed);
      if (!page.title) page.title = section;
      for (const target of targetsOf(trimmed)) page.anchors.push({ target, text: section, section });
      titled = /^[A-Za-z][A-Za-z0-9]*(?: [A-Za-z0-9]+){0,3}$/.test(section) ? section.toLowerCase().replace(/ /g, '_') : undefined;
      i++;
      continue;
    }
    if (
      trimmed === '' ||
      HEADING_RULE.test(trimmed) ||
      /^\+[-=+]+\+$/.test(trimmed) ||
      /^\.\. _[^:]+:$/.test(trimmed) ||
      /^\.\.\s*$/.test(trimmed)
    ) {
      flush();
      continue;
    }
    const code = CODE.exec(trimmed);
    const literal = !code && trimmed.endsWith('::') && !trimmed.startsWith('..');
    if (code || SKIPPED.test(trimmed) || literal) {
      if (literal && trimmed !== '::') paragraph.push(trimmed.slice(0, -1));
      flush();
      // The body: the lines indented deeper than the directive (or the paragraph), after its options.
      const base = indentOf(line);
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const l = lines[j];
        if (l.trim() !== '' && indentOf(l) <= base) break;
        body.push(l);
      }
      i = j - 1;
      const language = code ? code[1].toLowerCase() : 'gdscript';
      if ((code || literal) && (language === '' || language === 'gdscript')) sample(body.filter((l) => !/^\s*:\w+:/.test(l)).join('\n'));
      continue;
    }
    if (/^\.\.\s+\w[\w-]*::/.test(trimmed)) {
      // An admonition (note, tip, warning) or an unknown directive: its text is prose.
      flush();
      const rest = trimmed.replace(/^\.\.\s+\w[\w-]*::\s*/, '');
      if (rest) paragraph.push(rest);
      continue;
    }
    paragraph.push(
      trimmed
        .replace(/^(?:[-*+]|#\.|\d+\.)\s+/, '')
        .replace(/^\|\s*/, '')
        .replace(/\s*\|$/, ''),
    );
  }
  flush();
  // A class the page title names ("Using Area2D", "ParticleProcessMaterial 2D Usage", "Using NavigationAgents")
  // is the page's subject even where the page only writes it in plain words.
  for (const word of page.title.split(/[^A-Za-z0-9]+/)) {
    if (!/^[A-Z][A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*$/.test(word)) continue;
    page.classes.add(word);
    if (word.endsWith('s')) page.classes.add(word.slice(0, -1));
  }
  for (const a of page.anchors) {
    if ('label' in a.target) {
      const cls = /^class_([^_]+)/i.exec(a.target.label)?.[1];
      if (cls) page.classes.add(cls);
    } else {
      const first = a.target.name.split('.')[0];
      if (/^@?[A-Z][a-z]/.test(first) && !/^[A-Z0-9_]+$/.test(first)) page.classes.add(first);
      for (const s of a.target.scope ?? []) page.classes.add(s);
    }
  }
  return page;
}
