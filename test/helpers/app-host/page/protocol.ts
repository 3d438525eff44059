// What the host page and the Node driver say to each other (page.evaluate arguments and answers).
// JSON values only: they cross the page boundary by structured clone.

export interface ConnectOptions {
  /** 'legacy' opens with initialize (2025-11-25); 'modern' pins 2026-07-28. */
  era: 'legacy' | 'modern';
  /** Declare the MCP Apps extension (`io.modelcontextprotocol/ui`) in the client's capabilities. */
  declareApps: boolean;
}

export interface ToolSummary {
  name: string;
  /** The tool's `ui://` view, as a host finds it (`_meta.ui.resourceUri`, or the older `ui/resourceUri`). */
  resourceUri?: string;
  visibility?: string[];
}

/** A `tools/call` the view made through the bridge, and what came back to it. */
export interface ViewCall {
  name: string;
  arguments?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: string;
}

/** What `show` reports once the view has its input and result. */
export interface ShowReport {
  tool: string;
  resourceUri: string;
  /** The HTML the view was loaded from, exactly as `resources/read` gave it. */
  html: string;
  mimeType: string;
  /** The tool's result as the model would see it (the same object the view was handed). */
  result: Record<string, unknown>;
  /** The view's name and version from its `ui/initialize`. */
  app?: { name: string; version: string };
}

export interface HostApi {
  connect(options: ConnectOptions): Promise<ToolSummary[]>;
  show(tool: string, args: Record<string, unknown>): Promise<ShowReport>;
  viewCalls(): ViewCall[];
  logs(): string[];
}
