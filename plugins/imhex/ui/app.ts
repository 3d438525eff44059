// What every imhex view does with ext-apps' App: connect to the host, follow its theme, hand the
// tool's input and result to the view, and call tools back through the host (which forwards them
// to mcphost). A call's error result becomes a thrown Error with the tool's message.
import { App, applyDocumentTheme, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';

export interface ToolOutcome {
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  content?: Array<{ type: string; text?: string }>;
}

export interface View {
  /** The tool's structured result. */
  call<T>(name: string, args: Record<string, unknown>): Promise<T>;
  /** The tool's text result (for tools that answer with text only). */
  callText(name: string, args: Record<string, unknown>): Promise<string>;
}

/** The first text block of a result (an error result's message). */
function firstText(r: ToolOutcome): string {
  return r.content?.find((c) => c.type === 'text')?.text ?? 'the tool failed';
}

export function startView(
  name: string,
  handlers: { input?(args: Record<string, unknown>): void; result(result: ToolOutcome, view: View): void; error(message: string): void },
): View {
  const app = new App({ name, version: '1.0.0' });
  const outcome = async (tool: string, args: Record<string, unknown>) => {
    const r = (await app.callServerTool({ name: tool, arguments: args })) as ToolOutcome;
    if (r.isError) throw new Error(firstText(r));
    return r;
  };
  const view: View = {
    call: async <T>(tool: string, args: Record<string, unknown>) => (await outcome(tool, args)).structuredContent as T,
    callText: async (tool, args) => firstText(await outcome(tool, args)),
  };
  const theme = (ctx: McpUiHostContext) => {
    if (ctx.theme) applyDocumentTheme(ctx.theme);
    if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  };
  app.ontoolinput = (p) => handlers.input?.(p.arguments ?? {});
  app.ontoolresult = (r) => {
    const outcome = r as ToolOutcome;
    if (outcome.isError) handlers.error(firstText(outcome));
    else handlers.result(outcome, view);
  };
  app.ontoolcancelled = (p) => handlers.error(`cancelled${p.reason ? `: ${p.reason}` : ''}`);
  app.onhostcontextchanged = theme;
  void app.connect().then(() => {
    const ctx = app.getHostContext();
    if (ctx) theme(ctx);
  });
  return view;
}

/** `0x000001F0`, as the imhex tools write addresses. */
export const address = (n: number) => `0x${n.toString(16).toUpperCase().padStart(8, '0')}`;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string>) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

export function showError(target: HTMLElement, message: string): void {
  target.replaceChildren(el('p', { class: 'error' }, message));
}
