// Godot class XML → RawClass, with fast-xml-parser. Reads the 4.x schema (`<param>`, constructors,
// operators, annotations, deprecated/experimental) and tolerates 3.x files (`<argument>`, `version`,
// missing sections). The parser accepts some broken XML silently (a mismatched closing tag, a
// missing one), so every file first passes a quick tag-balance check; when that check, the parser
// or the root element objects, the library's XMLValidator names the error with line and column.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ConstantDoc, MethodDoc, ParamDoc, PropertyDoc, RawClass, SignalDoc, Status, ThemeItemDoc, TutorialLink } from '../model.js';
import { decodeEntities } from './entities.js';

/** A class file that is not well-formed XML, or not a Godot class document. */
export class XmlDocError extends Error {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly reason: string;
  constructor(file: string, line: number, col: number, reason: string) {
    super(`${file}:${line}:${col}: ${reason}`);
    this.name = 'XmlDocError';
    this.file = file;
    this.line = line;
    this.col = col;
    this.reason = reason;
  }
}

const LIST_TAGS = new Set([
  'method',
  'member',
  'signal',
  'constant',
  'theme_item',
  'annotation',
  'ctor',
  'operator',
  'param',
  'argument',
  'link',
  'return',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  // Entities are decoded by decodeEntities (five XML entities and numeric references only).
  processEntities: false,
  trimValues: true,
  jPath: false,
  // `constructor` is refused by the library as a prototype-pollution risk; rename it on the way in.
  transformTagName: (name: string) => (name === 'constructor' ? 'ctor' : name),
  isArray: (name: string) => LIST_TAGS.has(name),
});

// Tags (with their attributes), comments, processing instructions, CDATA — or a lone < or >.
const TAG = /<(?:(\/?)([A-Za-z_][\w.:-]*)(?:\s[^<>]*?)?(\/?)>|!--[\s\S]*?-->|\?[\s\S]*?\?>|!\[CDATA\[[\s\S]*?\]\]>)|[<>]/g;

/** True when every element is closed by its own closing tag and no `<` stands alone (about 6× faster than XMLValidator). */
export function tagsBalanced(xml: string): boolean {
  const stack: string[] = [];
  for (const m of xml.matchAll(TAG)) {
    if (m[0] === '<') return false;
    if (m[2] === undefined) continue;
    if (m[1]) {
      if (stack.pop() !== m[2]) return false;
    } else if (!m[3]) stack.push(m[2]);
  }
  return stack.length === 0;
}

/** Throws the validator's verdict as an XmlDocError, if it finds anything wrong. */
function validate(xml: string, file: string): void {
  const verdict = XMLValidator.validate(xml);
  if (verdict !== true) throw new XmlDocError(file, verdict.err.line ?? 1, verdict.err.col ?? 1, verdict.err.msg);
}

type Node = Record<string, unknown>;

function obj(value: unknown): Node | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : undefined;
}

function list(section: unknown, tag: string): Node[] {
  const items = obj(section)?.[tag];
  return Array.isArray(items) ? items.map((item) => obj(item) ?? { '#text': String(item) }) : [];
}

function attr(node: Node | undefined, name: string): string | undefined {
  const value = node?.[name];
  return typeof value === 'string' ? decodeEntities(value) : undefined;
}

/** The text content of an element that may be a bare string or an object with `#text`. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return decodeEntities(value);
  const text = obj(value)?.['#text'];
  return typeof text === 'string' ? decodeEntities(text) : '';
}

function status(node: Node): Status {
  const out: Status = {};
  const deprecated = attr(node, 'deprecated') ?? (attr(node, 'is_deprecated') === 'true' ? '' : undefined);
  const experimental = attr(node, 'experimental') ?? (attr(node, 'is_experimental') === 'true' ? '' : undefined);
  if (deprecated !== undefined) out.deprecated = deprecated;
  if (experimental !== undefined) out.experimental = experimental;
  return out;
}

function params(node: Node): ParamDoc[] {
  const raw = [...list(node, 'param'), ...list(node, 'argument')];
  raw.sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0));
  return raw.map((p) => {
    const out: ParamDoc = { name: attr(p, 'name') ?? '', type: attr(p, 'type') ?? 'Variant' };
    const enumName = attr(p, 'enum');
    const def = attr(p, 'default');
    if (enumName) out.enum = enumName;
    if (def !== undefined) out.default = def;
    return out;
  });
}

function method(node: Node): MethodDoc {
  const ret = list(node, 'return')[0];
  const out: MethodDoc = {
    name: attr(node, 'name') ?? '',
    returnType: attr(ret, 'type') ?? 'void',
    params: params(node),
    description: textOf(node.description),
    ...status(node),
  };
  const returnEnum = attr(ret, 'enum');
  const qualifiers = attr(node, 'qualifiers');
  if (returnEnum) out.returnEnum = returnEnum;
  if (qualifiers) out.qualifiers = qualifiers;
  return out;
}

function property(node: Node): PropertyDoc {
  const out: PropertyDoc = {
    name: attr(node, 'name') ?? '',
    type: attr(node, 'type') ?? 'Variant',
    description: textOf(node),
    ...status(node),
  };
  for (const key of ['enum', 'default', 'setter', 'getter', 'overrides'] as const) {
    const value = attr(node, key);
    if (value) out[key] = value;
  }
  return out;
}

function signal(node: Node): SignalDoc {
  return { name: attr(node, 'name') ?? '', params: params(node), description: textOf(node.description), ...status(node) };
}

function constant(node: Node): ConstantDoc {
  const out: ConstantDoc = { name: attr(node, 'name') ?? '', value: attr(node, 'value') ?? '', description: textOf(node), ...status(node) };
  const enumName = attr(node, 'enum');
  if (enumName) out.enum = enumName;
  if (attr(node, 'is_bitfield') === 'true') out.isBitfield = true;
  return out;
}

/** Godot 3 files have no data_type: it follows from the item's type, as Godot 4's Theme groups them. */
const DATA_TYPES: Record<string, string> = {
  Color: 'color',
  int: 'constant',
  Font: 'font',
  Texture: 'icon',
  Texture2D: 'icon',
  StyleBox: 'style',
};

function themeItem(node: Node): ThemeItemDoc {
  const type = attr(node, 'type') ?? '';
  const out: ThemeItemDoc = {
    name: attr(node, 'name') ?? '',
    dataType: attr(node, 'data_type') ?? DATA_TYPES[type] ?? type.toLowerCase(),
    type,
    description: textOf(node),
  };
  const def = attr(node, 'default');
  if (def !== undefined) out.default = def;
  return out;
}

function tutorials(section: unknown): TutorialLink[] {
  return list(section, 'link').map((link) => {
    const title = attr(link, 'title');
    return title ? { title, url: textOf(link) } : { url: textOf(link) };
  });
}

/**
 * Parses one class file. Throws XmlDocError (with line and column) when the file is not well-formed
 * XML or its root is not `<class name="…">`.
 */
export function parseClassXml(xml: string, file: string): RawClass {
  if (!tagsBalanced(xml)) validate(xml, file);
  let tree: unknown;
  try {
    tree = parser.parse(xml);
  } catch (error) {
    validate(xml, file);
    throw new XmlDocError(file, 1, 1, (error as Error).message);
  }
  const root = obj(obj(tree)?.class);
  const name = attr(root, 'name');
  if (!root || !name) {
    validate(xml, file);
    throw new XmlDocError(file, 1, 1, 'the root element is not <class name="…">, so this is not a Godot class file');
  }
  const out: RawClass = {
    name,
    brief: textOf(root.brief_description),
    description: textOf(root.description),
    tutorials: tutorials(root.tutorials),
    methods: list(root.methods, 'method').map(method),
    properties: list(root.members, 'member').map(property),
    signals: list(root.signals, 'signal').map(signal),
    constants: list(root.constants, 'constant').map(constant),
    themeItems: list(root.theme_items, 'theme_item').map(themeItem),
    annotations: list(root.annotations, 'annotation').map(method),
    constructors: list(root.constructors, 'ctor').map(method),
    operators: list(root.operators, 'operator').map(method),
    ...status(root),
  };
  const inherits = attr(root, 'inherits');
  const version = attr(root, 'version');
  const category = attr(root, 'category');
  if (inherits) out.inherits = inherits;
  if (version) out.version = version;
  if (category) out.category = category;
  return out;
}
