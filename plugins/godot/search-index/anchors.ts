// Document expansion from the reference itself ("anchor text"): a sentence of one description that
// names another symbol (`[method SceneTree.create_timer]`, `[Timer]`) says what that symbol is for,
// often in other words than its own description; so does a code sample that calls it
// (`await get_tree().create_timer(1.0).timeout  # Waits one second`). Those words are added to the
// named symbol's `anchor` field.
import { CODE_BLOCKS, LANG_BLOCK, toPlain } from '../parse/bbcode.js';

/**
 * `[target, text]`: target is `Class`, `Class.member`, or `?member` for a call in a code sample,
 * whose class the assembler decides (the describing class's own chain, else a name only one class has).
 */
export type Anchor = [target: string, text: string];

const MEMBER_REF = /\[(?:method|member|signal|constant|theme_item|annotation) ([^\]\s]+)\]/g;
const CLASS_REF = /\[(@?[A-Z][A-Za-z0-9_]*)\]/g;
const QUALIFIED = /^@?[A-Z][A-Za-z0-9_]*\./;
/** Calls (`foo(`, `.foo(`) and qualified members (`Input.is_action_pressed`) in GDScript. */
const CALL = /(?:\b([A-Z@][A-Za-z0-9_]*)\.)?(?<![\w@])([a-z_][a-z0-9_]*)\s*\(/g;
/** Calls in samples that say nothing about a particular symbol. */
const GENERIC = new Set(['print', 'str', 'len', 'range', 'int', 'float', 'bool', 'new', 'func', 'if', 'for', 'while', 'return']);
const MAX_TARGETS_PER_SAMPLE = 8;

function sentences(prose: string): string[] {
  return prose.split(/(?<=[.!?])\s+|\n/).filter((s) => s.trim() !== '');
}

/** The GDScript of a code sample (`[codeblocks]` carry GDScript and C#; only GDScript is read). */
function gdscriptOf(match: RegExpMatchArray): string {
  if (match[1] !== undefined) {
    for (const block of match[1].matchAll(LANG_BLOCK)) if (block[1] === 'gdscript') return block[2];
    return '';
  }
  return match[2] === undefined || match[2] === 'gdscript' ? match[3] : '';
}

function comments(code: string): string {
  const out: string[] = [];
  for (const line of code.split('\n')) {
    const at = line.indexOf('#');
    if (at >= 0) out.push(line.slice(at + 1).trim());
  }
  return out.join('. ');
}

/**
 * The anchors one description (`bbcode`, written in class `className` about `self`) gives other
 * symbols, and the text of its own GDScript samples (for the symbol's `code` field).
 */
export function anchorsOf(bbcode: string, className: string, self: string): { anchors: Anchor[]; code: string } {
  const anchors: Anchor[] = [];
  if (!bbcode) return { anchors, code: '' };
  const codes: string[] = [];
  let last = 0;
  let lead = '';
  const prose = (text: string) => {
    for (const sentence of sentences(text)) {
      const targets = new Set<string>();
      for (const m of sentence.matchAll(MEMBER_REF)) targets.add(QUALIFIED.test(m[1]) ? m[1] : `${className}.${m[1]}`);
      for (const m of sentence.matchAll(CLASS_REF)) targets.add(m[1]);
      targets.delete(self);
      if (targets.size === 0) {
        lead = sentence;
        continue;
      }
      const plain = toPlain(sentence);
      for (const target of targets) anchors.push([target, plain]);
      lead = sentence;
    }
  };
  for (const m of bbcode.matchAll(CODE_BLOCKS)) {
    prose(bbcode.slice(last, m.index));
    last = m.index! + m[0].length;
    const code = gdscriptOf(m);
    if (!code.trim()) continue;
    codes.push(code);
    // The snippet around a call: the sentence that introduces the sample and the sample's comments.
    const around = `${toPlain(lead)} ${comments(code)}`.trim();
    if (!around) continue;
    const targets = new Set<string>();
    for (const call of code.matchAll(CALL)) {
      if (targets.size >= MAX_TARGETS_PER_SAMPLE) break;
      if (GENERIC.has(call[2])) continue;
      targets.add(call[1] ? `${call[1]}.${call[2]}` : `?${call[2]}`);
    }
    targets.delete(self);
    targets.delete(`?${self.slice(self.lastIndexOf('.') + 1)}`);
    for (const target of targets) anchors.push([target, around]);
  }
  prose(bbcode.slice(last));
  return { anchors, code: codes.join('\n') };
}
