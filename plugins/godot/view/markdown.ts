// Markdown pages for the godot://class and godot://symbol resources: what a model or a person reads.
import type { SymbolKind } from '../model.js';
import { classUri, symbolUri } from '../uri.js';
import type { GodotClassDoc } from './class-doc.js';
import type { SymbolDoc } from './symbol-doc.js';

function notes(item: { deprecated?: string; experimental?: string }): string[] {
  const out: string[] = [];
  if (item.deprecated !== undefined) out.push(`> **Deprecated.** ${item.deprecated}`.trimEnd());
  if (item.experimental !== undefined) out.push(`> **Experimental.** ${item.experimental}`.trimEnd());
  return out;
}

function section(
  title: string,
  cls: string,
  kind: SymbolKind,
  items: Array<{ name: string; signature: string; description: string; deprecated?: string; experimental?: string; overrides?: string }>,
): string[] {
  const shown = items.filter((i) => !i.overrides);
  if (!shown.length) return [];
  const out = [`## ${title}`];
  for (const item of shown) {
    out.push(`### [\`${item.signature}\`](${symbolUri(cls, kind, item.name)})`, ...notes(item));
    if (item.description) out.push(item.description);
  }
  return out;
}

export function classMarkdown(doc: GodotClassDoc): string {
  const out = [`# ${doc.name}`];
  if (doc.inheritanceChain.length > 1) {
    out.push(
      `*Inherits:* ${doc.inheritanceChain
        .slice(1)
        .map((n) => `[${n}](${classUri(n)})`)
        .join(' < ')}`,
    );
  }
  out.push(...notes(doc));
  if (doc.brief) out.push(doc.brief);
  if (doc.description) out.push('## Description', doc.description);
  if (doc.tutorials.length) out.push('## Tutorials', doc.tutorials.map((t) => `- [${t.title ?? t.url}](${t.url})`).join('\n'));
  const overridden = doc.properties.filter((p) => p.overrides);
  out.push(...section('Properties', doc.name, 'property', doc.properties));
  if (overridden.length)
    out.push(`Overrides the defaults of: ${overridden.map((p) => `\`${p.signature}\` (from ${p.overrides})`).join(', ')}.`);
  out.push(...section('Methods', doc.name, 'method', doc.methods));
  out.push(...section('Signals', doc.name, 'signal', doc.signals));
  out.push(...section('Constants', doc.name, 'constant', doc.constants));
  out.push(...section('Theme items', doc.name, 'theme_item', doc.themeItemDetails ?? []));
  out.push(...section('Annotations', doc.name, 'annotation', doc.annotationDetails ?? []));
  return `${out.join('\n\n')}\n`;
}

export function symbolMarkdown(doc: SymbolDoc): string {
  const out = [`# ${doc.qname} (${doc.kind.replace('_', ' ')})`];
  if (doc.signature) out.push(`\`${doc.signature}\``);
  if (doc.note) out.push(`*${doc.note}*`);
  out.push(...notes(doc as { deprecated?: string; experimental?: string }));
  if (doc.description) out.push(doc.description);
  if (doc.values?.length) out.push(doc.values.map((v) => `- \`${v.signature}\`${v.description ? ` — ${v.description}` : ''}`).join('\n'));
  out.push(`Class: [${doc.className}](${classUri(doc.className)})`);
  return `${out.join('\n\n')}\n`;
}
