// MCP Apps (`io.modelcontextprotocol/ui`): which clients are shown views, and which tools are for
// views only. A client that declared the extension with the HTML view type is a host that renders
// views: it is listed every tool with its `_meta` (app-only tools too: the spec has the host keep
// those from its model, and hosts check a view's call against the list they were given). A client
// that did not is listed what it was before mcphost relayed views: no `_meta` on tools or
// resources, and no tool meant only for views, which the spec keeps from every model (SEP-1865,
// "Visibility": a host MUST NOT list to its agent a tool whose visibility lacks "model").
import type { ClientCapabilities, ToolMeta } from '../backend/types.js';
import { UI_EXTENSION, VIEW_MIME_TYPE } from '../backend/ui-extension.js';

/** Whether the client declared the extension with the HTML view type (as ext-apps' getUiCapability is checked). */
export function rendersViews(capabilities: ClientCapabilities | undefined): boolean {
  const declared = capabilities?.extensions?.[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(declared?.mimeTypes) && declared.mimeTypes.includes(VIEW_MIME_TYPE);
}

/** A tool whose `_meta.ui.visibility` leaves out `model`: callable (by its view), listed to no model. */
export function isAppOnly(meta: ToolMeta | undefined): boolean {
  const visibility = meta?.ui?.visibility;
  return Array.isArray(visibility) && !visibility.includes('model');
}
