// When two places in the HUD's graph are one object. ExileApi's graph is cyclic everywhere
// (Component.Owner is the entity again, every memory object reaches TheGame, M and the static
// Cache), and many of its objects have no address, so the recorder decides identity from what the
// HUD shows, before spending an explore call where it can:
//   1. a root: same type and ToString() text as one of the roots the HUD lists (IngameState.Camera
//      is the Camera root, Player.M is the Memory root);
//   2. an ancestor: same type and text as an object on the path to it (a cycle, e.g.
//      EntityListWrapper.gameController back to the GameController);
//   3. an address in the text: a memory object whose ToString() shows its address
//      (RemoteMemoryObject writes "{Address:X}", Entity "…: (1F3400054A0)") and that was recorded;
//   4. a shared member (M, TheGame, Cache and their static twins): the first one met is recorded,
//      every later one with the same type and text refers to it;
//   5. once explored, `Address` or `_address` with the runtime type.
// A node is anything recorded (a root, an explored object, an item shown inline); ids are given only
// to nodes something refers to.
import { shortType } from '../model.js';

/** Members ExileApi defines on every RemoteMemoryObject that lead to process-wide singletons. */
const SHARED_MEMBERS = new Set(['M', 'TheGame', 'Cache', 'pM', 'pTheGame', 'pCache']);

export interface RecordNode {
  path: string;
  type: string;
  text?: string;
  /** The recorded object, once built. */
  record?: Record<string, unknown>;
  id?: number;
  /** Explored and found to be another node (by its address): references go there. */
  alias?: RecordNode;
}

/** Where a member's value already is, as a `$ref` target or a root that is not recorded. */
export type Same = { node: RecordNode } | { unrecorded: { type: string; text: string } };

export class Identities {
  private nextId = 0;
  private readonly roots = new Map<string, RecordNode>();
  private readonly skippedRoots = new Map<string, { type: string; text: string }>();
  private readonly shared = new Map<string, RecordNode>();
  private readonly byText = new Map<string, RecordNode[]>();
  private readonly byAddress = new Map<string, RecordNode>();

  constructor(private readonly bases: (type: string) => string[]) {}

  private readonly aliases = new Map<number, number>();

  /** The id a `$ref` to this node uses (given now if it has none). */
  idOf(node: RecordNode): number {
    while (node.alias) node = node.alias;
    if (node.id === undefined) {
      node.id = ++this.nextId;
      if (node.record) node.record.$id = node.id;
    }
    return node.id;
  }

  /**
   * A root the HUD lists. A recorded one is referred to wherever it is met again; one left out for
   * its size (Files, Memory) is a stub wherever it is met; any other is recorded where it is met.
   */
  addRoot(node: RecordNode, how: 'recorded' | 'skipped' | 'elsewhere'): void {
    if (node.text === undefined || how === 'elsewhere') return;
    if (how === 'recorded') this.roots.set(node.text, node);
    else this.skippedRoots.set(node.text, { type: node.type, text: node.text });
  }

  /** Could an object declared as `declared` showing `text` be `node`? */
  private fits(declared: string, text: string, node: { type: string; text?: string }): boolean {
    if (node.text !== text) return false;
    if (declared === node.type || text === node.type) return true;
    const short = shortType(declared);
    return [node.type, ...this.bases(node.type)].some((t) => t === declared || shortType(t) === short);
  }

  /** Rules 1–4, before any call: the node this member's value is, if it is one already met. */
  find(declared: string, text: string, memberName: string | undefined, ancestors: RecordNode[]): Same | undefined {
    const root = this.roots.get(text);
    if (root && this.fits(declared, text, root)) return { node: root };
    const skipped = this.skippedRoots.get(text);
    if (skipped && this.fits(declared, text, skipped)) return { unrecorded: skipped };
    for (let i = ancestors.length - 1; i >= 0; i--) if (this.fits(declared, text, ancestors[i])) return { node: ancestors[i] };
    for (const node of this.byText.get(text) ?? []) if (this.fits(declared, text, node)) return { node };
    if (memberName !== undefined && SHARED_MEMBERS.has(memberName)) {
      const first = this.shared.get(`${declared}\u0000${text}`);
      if (first) return { node: first };
    }
    return undefined;
  }

  /** The first shared member of its kind: later ones refer to it. */
  addShared(declared: string, memberName: string | undefined, node: RecordNode): void {
    if (memberName === undefined || !SHARED_MEMBERS.has(memberName) || node.text === undefined) return;
    const key = `${declared}\u0000${node.text}`;
    if (!this.shared.has(key)) this.shared.set(key, node);
  }

  /** `node` turned out to be `same`: references already given to `node` are redirected at the end. */
  merge(node: RecordNode, same: RecordNode): number {
    node.alias = same;
    const id = this.idOf(same);
    if (node.id !== undefined) this.aliases.set(node.id, id);
    return id;
  }

  /** Rewrites `$ref`s to nodes that were merged into others. */
  redirect(value: unknown): void {
    if (this.aliases.size === 0 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((v) => this.redirect(v));
    const o = value as Record<string, unknown>;
    if (typeof o.$ref === 'number' && this.aliases.has(o.$ref)) {
      let id = o.$ref;
      while (this.aliases.has(id)) id = this.aliases.get(id)!;
      o.$ref = id;
      return;
    }
    for (const [k, v] of Object.entries(o)) if (k !== '$type') this.redirect(v);
  }

  /** Rule 5, once the members are known; also makes the node findable by its text (rule 3). */
  byIdentity(node: RecordNode, address: number | undefined): RecordNode | undefined {
    // A HUD that shows no Address still shows ToString(), which for memory objects is the address.
    const key =
      address !== undefined
        ? `${node.type}@${address}`
        : node.text !== undefined && hasAddressWord(node.text)
          ? `${node.type}#${node.text}`
          : undefined;
    if (key === undefined) return undefined;
    const seen = this.byAddress.get(key);
    if (seen) return seen;
    this.byAddress.set(key, node);
    if (node.text !== undefined && (address === undefined || showsAddress(node.text, address))) {
      const list = this.byText.get(node.text) ?? [];
      list.push(node);
      this.byText.set(node.text, list);
    }
    return undefined;
  }
}

const isHexDigit = (c: string) => (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
const isWordChar = (c: string | undefined) => c !== undefined && /[0-9A-Za-z]/.test(c);

/** A word of 8 or more upper-case hexadecimal digits with a letter among them: what "{Address:X}" writes. */
export function hasAddressWord(text: string): boolean {
  for (let i = 0; i < text.length;) {
    if (!isHexDigit(text[i]) || isWordChar(text[i - 1])) {
      i++;
      continue;
    }
    let j = i;
    let letter = false;
    for (; j < text.length && isHexDigit(text[j]); j++) if (text[j] >= 'A') letter = true;
    if (j - i >= 8 && letter && !isWordChar(text[j])) return true;
    i = j + 1;
  }
  return false;
}

/** Does `text` show `address` in hexadecimal as a word of its own (as "{Address:X}" writes it)? */
export function showsAddress(text: string, address: number): boolean {
  const hex = address.toString(16).toUpperCase();
  if (hex.length < 6) return false;
  for (let at = text.indexOf(hex); at >= 0; at = text.indexOf(hex, at + 1)) {
    if (!isWordChar(text[at - 1]) && !isWordChar(text[at + hex.length])) return true;
  }
  return false;
}

/** `Address` or `_address`, when the HUD shows one that is not zero. */
export function addressOf(members: Array<{ name?: string; value?: unknown }>): number | undefined {
  for (const m of members) {
    if ((m.name === 'Address' || m.name === '_address') && typeof m.value === 'number' && m.value !== 0) return m.value;
  }
  return undefined;
}
