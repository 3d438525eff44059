// The shapes of Godot's class reference, as parsed from its doc XML (4.x and 3.x schemas).
// Descriptions here are still Godot BBCode; `view/` turns them into Markdown for clients.

export type SymbolKind = 'method' | 'property' | 'signal' | 'constant' | 'enum' | 'theme_item' | 'annotation';
export type DocKind = 'class' | Exclude<SymbolKind, 'enum'>;
export const SYMBOL_KINDS: readonly SymbolKind[] = ['method', 'property', 'signal', 'constant', 'enum', 'theme_item', 'annotation'];

/** Deprecation and experimental notes Godot 4 puts on classes and members. */
export interface Status {
  deprecated?: string;
  experimental?: string;
  /** On pages only: the symbols (`Class`, `Class.member`) the deprecation note names as the replacement. */
  replacedBy?: string[];
}

export interface ParamDoc {
  name: string;
  type: string;
  enum?: string;
  default?: string;
}

export interface MethodDoc extends Status {
  name: string;
  returnType: string;
  returnEnum?: string;
  params: ParamDoc[];
  /** `const`, `static`, `virtual`, `vararg` … as the XML says. */
  qualifiers?: string;
  description: string;
}

export interface PropertyDoc extends Status {
  name: string;
  type: string;
  enum?: string;
  default?: string;
  setter?: string;
  getter?: string;
  /** Set when this entry only overrides the default of a property declared by an ancestor. */
  overrides?: string;
  description: string;
}

export interface SignalDoc extends Status {
  name: string;
  params: ParamDoc[];
  description: string;
}

export interface ConstantDoc extends Status {
  name: string;
  value: string;
  enum?: string;
  isBitfield?: boolean;
  description: string;
}

export interface ThemeItemDoc {
  name: string;
  /** Godot 4's `data_type` (color, constant, font, font_size, icon, style); derived from `type` for 3.x files. */
  dataType: string;
  type: string;
  default?: string;
  description: string;
}

export interface TutorialLink {
  title?: string;
  url: string;
}

/** One class as read from its XML file. */
export interface RawClass extends Status {
  name: string;
  inherits?: string;
  /** `version` attribute (3.x files carry one). */
  version?: string;
  /** `category` attribute (older references carry one: "Core", "Nodes", "Resources" …). */
  category?: string;
  brief: string;
  description: string;
  tutorials: TutorialLink[];
  methods: MethodDoc[];
  properties: PropertyDoc[];
  signals: SignalDoc[];
  constants: ConstantDoc[];
  themeItems: ThemeItemDoc[];
  annotations: MethodDoc[];
  constructors: MethodDoc[];
  operators: MethodDoc[];
}
