// The Markdown the godot tools write (plugins/godot/parse/bbcode.ts: paragraphs, ``` fences,
// `code`, **bold**, *italic*, ~~strike~~, [label](target), <url>, line breaks), as DOM nodes —
// never as HTML text, so nothing in a description can add markup or script to the page. Links to
// godot:// classes and symbols get data-class / data-symbol for the view to follow.
import { el } from './app.js';

const INLINE =
  /(`` (.+?) ``|`([^`]+)`|\*\*(.+?)\*\*|~~(.+?)~~|\*([^*\s][^*]*?)\*|\[((?:`[^`]*`|[^\]])+)\]\(([^)\s]+)\)|<(https?:\/\/[^>\s]+)>| {2}\n)/g;

function link(label: string, target: string): HTMLElement {
  const a = el('a', { href: target });
  a.append(...inline(label));
  const cls = /^godot:\/\/class\/([^/]+)$/.exec(target);
  const sym = /^godot:\/\/symbol\/([^/]+)\/([a-z_]+)\/(.+)$/.exec(target);
  if (cls) a.dataset.class = decodeURIComponent(cls[1]);
  else if (sym) Object.assign(a.dataset, { class: decodeURIComponent(sym[1]), kind: sym[2], member: decodeURIComponent(sym[3]) });
  else a.dataset.external = 'true';
  return a;
}

export function inline(text: string): Node[] {
  const out: Node[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    const [whole, , dcode, code, bold, strike, italic, label, target, auto] = m;
    if (dcode !== undefined || code !== undefined) out.push(el('code', {}, dcode ?? code));
    else if (bold !== undefined) out.push(el('strong', {}, ...inline(bold)));
    else if (strike !== undefined) out.push(el('s', {}, ...inline(strike)));
    else if (italic !== undefined) out.push(el('em', {}, ...inline(italic)));
    else if (label !== undefined) out.push(link(label, target));
    else if (auto !== undefined) out.push(link(auto, auto));
    else if (whole === '  \n') out.push(el('br'));
    last = m.index + whole.length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

export function markdown(text: string): HTMLElement {
  const box = el('div', { class: 'md' });
  const fence = /^(`{3,4})([\w+-]*)\n([\s\S]*?)\n\1$/gm;
  let last = 0;
  const prose = (chunk: string) => {
    for (const para of chunk.split(/\n{2,}/)) {
      const t = para.trim();
      if (!t) continue;
      if (t.startsWith('> ')) box.append(el('blockquote', {}, ...inline(t.slice(2))));
      else if (/^- /.test(t)) box.append(el('ul', {}, ...t.split('\n').map((l) => el('li', {}, ...inline(l.replace(/^- /, ''))))));
      else box.append(el('p', {}, ...inline(t)));
    }
  };
  for (const m of text.matchAll(fence)) {
    prose(text.slice(last, m.index));
    box.append(el('pre', { ...(m[2] && { 'data-lang': m[2] }) }, el('code', {}, m[3])));
    last = m.index + m[0].length;
  }
  prose(text.slice(last));
  return box;
}
