// The package's public API (`import { defineBackend } from 'mcphost'`) and what a built-in plugin
// imports from the host: one explicit list, so adding a name here is a public-API decision.
export type {
  Backend,
  BackendContext,
  BackendFactory,
  CallContext,
  ClientInfo,
  ClientTransport,
  CommandDef,
  ContentBlock,
  FileAccess,
  HealthReport,
  JsonSchemaInput,
  Listing,
  ListKind,
  Logger,
  LogLevel,
  ProgressUpdate,
  PromptDef,
  PromptMessage,
  PromptResult,
  ReadResult,
  ResourceContents,
  ResourceDef,
  ResourceListing,
  ResourceTemplateDef,
  ToolAnnotations,
  ToolDef,
  ToolHandler,
  ToolResult,
} from './types.js';
export { configPath, defineBackend, defineCommand, definePrompt, defineTool } from './define.js';
export { NotFoundError, ToolError, UnavailableError, isToolError } from './errors.js';
export { structured, text } from './result.js';
