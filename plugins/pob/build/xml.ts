// Path of Building build XML, parsed with fast-xml-parser into a small element tree: every
// element is a list (PoB repeats most of them), attributes are plain strings, text is `#text`.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ToolError } from '../../../src/backend/index.js';

export interface XmlElement {
  [key: string]: string | XmlElement[] | undefined;
  '#text'?: string;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: '#text',
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
});

const games = new WeakMap<object, 'poe1' | 'poe2'>();

/** Which game a parsed build is for: its root element said (PoE2's builds are <PathOfBuilding2>). */
export function gameOf(root: XmlElement): 'poe1' | 'poe2' {
  return games.get(root) ?? 'poe1';
}

/** Parses a build; a document that is not XML or not a PoB build is a ToolError naming the field. */
export function parseBuildXml(xml: string, field = 'build'): XmlElement {
  const text = xml.replace(/^\uFEFF/, '');
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw new ToolError(`${field}: not valid XML (${msg} at line ${line}, column ${col})`, { code: 'BAD_XML', data: { field, line, col } });
  }
  const doc = parser.parse(text) as Record<string, unknown>;
  const rootName = Object.keys(doc).find((k) => k !== '?xml');
  // Path of Building writes <PathOfBuilding>; Path of Building 2 (PoE2) <PathOfBuilding2>.
  const root = rootName === 'PathOfBuilding' || rootName === 'PathOfBuilding2' ? (doc[rootName] as XmlElement[])[0] : undefined;
  if (root && typeof root === 'object') games.set(root, rootName === 'PathOfBuilding2' ? 'poe2' : 'poe1');
  if (!root) {
    throw new ToolError(
      `${field}: not a Path of Building document: the root element is <${rootName ?? 'none'}>, expected <PathOfBuilding> (or <PathOfBuilding2> for Path of Exile 2)`,
      {
        code: 'NOT_A_BUILD',
        data: { field, root: rootName },
      },
    );
  }
  return typeof root === 'object' ? root : {};
}

/** Child elements named `name` (always a list). */
export function children(element: XmlElement | undefined, name: string): XmlElement[] {
  const value = element?.[name];
  return Array.isArray(value) ? value.map((v) => (typeof v === 'object' && v !== null ? v : {})) : [];
}

export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return children(element, name)[0];
}

export function attr(element: XmlElement | undefined, name: string): string | undefined {
  const value = element?.[name];
  return typeof value === 'string' ? value : undefined;
}

export function textOf(element: XmlElement | undefined): string {
  const value = element?.['#text'];
  return typeof value === 'string' ? value : '';
}

/** A number attribute; undefined when absent or not a number (PoB writes "nil" for unset values). */
export function numberAttr(element: XmlElement | undefined, name: string): number | undefined {
  const value = attr(element, name);
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

export function boolAttr(element: XmlElement | undefined, name: string, fallback: boolean): boolean {
  const value = attr(element, name);
  return value === undefined || value === 'nil' ? fallback : value === 'true';
}

/**
 * The active entry of a set list (`<Tree activeSpec>`, `<Skills activeSkillSet>`, …): by `id`
 * when the entries carry one, else by position (1-based). Old builds without sets return the parent.
 */
export function activeEntry(
  parent: XmlElement | undefined,
  setName: string,
  activeAttr: string,
  byPosition = false,
): XmlElement | undefined {
  const sets = children(parent, setName);
  if (sets.length === 0) return parent;
  const active = attr(parent, activeAttr) ?? '1';
  if (!byPosition) {
    const found = sets.find((s) => attr(s, 'id') === active);
    if (found) return found;
  }
  return sets[Number(active) - 1] ?? sets[0];
}
