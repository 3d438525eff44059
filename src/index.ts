// The package's public API, for authors of third-party backends (`import { defineBackend } from 'mcphost'`).
// Adding an export here is a decision: each name is stable API.
export type {
  Backend,
  BackendContext,
  BackendFactory,
  CallContext,
  ContentBlock,
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
} from './backend/index.js';
export { configPath, defineBackend, definePrompt, defineTool, NotFoundError, ToolError, UnavailableError, structured, text } from './backend/index.js';
