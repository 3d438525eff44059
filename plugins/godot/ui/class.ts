// The class page of godot_get_class: the inheritance chain, the brief and description, then
// properties, methods, signals and constants with their signatures and descriptions. A link to
// another class (in the chain, a type, a description) asks godot_get_class for it, a call from
// this view through the host to mcphost; a link to a member scrolls to it, on this page or on its
// class's page. Pages visited are kept for "back".
import './style.css';
import { el, showError, startView, type View } from './app.js';
import { inline, markdown } from './markdown.js';

interface Member {
  name: string;
  signature: string;
  description: string;
  type?: string;
  returnType?: string;
  default?: string;
  enum?: string;
  value?: string;
  overrides?: string;
  deprecated?: string;
  experimental?: string;
}
interface ClassDoc {
  name: string;
  inheritanceChain: string[];
  brief: string;
  description: string;
  tutorials: Array<{ title?: string; url: string }>;
  properties: Member[];
  methods: Member[];
  signals: Member[];
  constants: Member[];
  deprecated?: string;
  experimental?: string;
}

const SECTIONS = [
  ['properties', 'Properties', 'property'],
  ['methods', 'Methods', 'method'],
  ['signals', 'Signals', 'signal'],
  ['constants', 'Constants', 'constant'],
] as const;

const page = document.getElementById('page')!;
const history: ClassDoc[] = [];

const status = (text: string) => (document.getElementById('status')!.textContent = text);
const anchor = (kind: string, name: string) => `${kind}-${name}`;

function classLink(name: string): HTMLElement {
  return el('a', { href: `godot://class/${name}`, 'data-class': name }, name);
}

function crumbs(): void {
  const nav = document.getElementById('crumbs')!;
  nav.replaceChildren();
  if (history.length > 1) {
    const back = el('button', { type: 'button', id: 'back' }, `◀ ${history[history.length - 2].name}`);
    back.addEventListener('click', () => {
      history.pop();
      render(history[history.length - 1]);
    });
    nav.append(back);
  }
}

function member(kind: string, m: Member): HTMLElement {
  const notes = [
    m.deprecated !== undefined && `Deprecated. ${m.deprecated}`,
    m.experimental !== undefined && `Experimental. ${m.experimental}`,
  ].filter(Boolean) as string[];
  return el(
    'section',
    { class: 'member', id: anchor(kind, m.name), 'data-name': m.name },
    el('h3', {}, el('code', {}, m.signature)),
    ...notes.map((n) => el('p', { class: 'note' }, ...inline(n))),
    m.description ? markdown(m.description) : el('p', { class: 'missing' }, 'No description.'),
  );
}

function render(doc: ClassDoc): void {
  crumbs();
  const chain = doc.inheritanceChain.slice(1);
  const toc = SECTIONS.filter(([key]) => doc[key].some((m) => !m.overrides)).map(([key, title]) =>
    el('a', { href: `#${key}`, 'data-section': key }, `${title} (${doc[key].filter((m) => !m.overrides).length})`),
  );
  page.replaceChildren(
    el('h1', { id: 'name' }, doc.name),
    ...(chain.length
      ? [el('p', { class: 'inherits', id: 'inherits' }, 'Inherits: ', ...chain.flatMap((n, i) => [...(i ? [' < '] : []), classLink(n)]))]
      : []),
    ...(doc.deprecated !== undefined ? [el('p', { class: 'note' }, `Deprecated. ${doc.deprecated}`)] : []),
    el('p', { class: 'brief', id: 'brief' }, ...inline(doc.brief)),
    el('nav', { class: 'toc' }, ...toc),
    ...(doc.description ? [el('h2', {}, 'Description'), markdown(doc.description)] : []),
    ...(doc.tutorials.length
      ? [
          el('h2', {}, 'Tutorials'),
          el('ul', {}, ...doc.tutorials.map((t) => el('li', {}, el('a', { href: t.url, 'data-external': 'true' }, t.title ?? t.url)))),
        ]
      : []),
    ...SECTIONS.flatMap(([key, title, kind]) => {
      const items = doc[key].filter((m) => !m.overrides);
      return items.length ? [el('h2', { id: key }, title), ...items.map((m) => member(kind, m))] : [];
    }),
  );
  window.scrollTo(0, 0);
}

async function openClass(name: string, member?: { kind: string; name: string }): Promise<void> {
  const current = history[history.length - 1];
  if (current?.name !== name) {
    status(`Opening ${name}…`);
    const doc = await view.call<ClassDoc>('godot_get_class', { name });
    history.push(doc);
    render(doc);
    status('');
  }
  if (member) {
    const target = document.getElementById(anchor(member.kind, member.name));
    if (target) {
      for (const m of document.querySelectorAll('.member.focus')) m.classList.remove('focus');
      target.classList.add('focus');
      target.scrollIntoView({ block: 'start' });
    } else status(`${name}.${member.name} is not on this page (inherited from an ancestor?)`);
  }
}

const view: View = startView('godot class page', {
  result: (r) => {
    const doc = r.structuredContent as unknown as ClassDoc | undefined;
    if (!doc?.inheritanceChain) return showError(page, 'This view shows godot_get_class results.');
    history.splice(0, history.length, doc);
    render(doc);
  },
  error: (message) => showError(page, message),
});

document.addEventListener('click', (event) => {
  const a = (event.target as HTMLElement).closest('a');
  if (!a) return;
  event.preventDefault();
  if (a.dataset.section) return document.getElementById(a.dataset.section)?.scrollIntoView({ block: 'start' });
  if (a.dataset.external) return view.openLink(a.getAttribute('href')!);
  if (a.dataset.class) {
    const m = a.dataset.member ? { kind: a.dataset.kind!, name: a.dataset.member } : undefined;
    void openClass(a.dataset.class, m).catch((e: Error) => status(e.message));
  }
});
