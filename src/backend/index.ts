// The package's public API (`import { defineBackend } from 'mcphost'`) and what a built-in plugin
// imports from the host: one explicit list, so adding a name here is a public-API decision.
export type {
  Backend,
  BackendContext,
  BackendFactory,
  CallContext,
  ClientCapabilities,
  ClientInfo,
  ClientLogLevel,
  ClientTransport,
  CommandDef,
  ContentBlock,
  ElicitAnswer,
  ElicitParams,
  FileAccess,
  HealthReport,
  InputAnswers,
  InputRequest,
  InputRequiredResult,
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
  ResourceMeta,
  ResourceSubscribe,
  ResourceTemplateDef,
  Root,
  SampleAnswer,
  SampleParams,
  ToolAnnotations,
  ToolDef,
  ToolHandler,
  ToolMeta,
  ToolResult,
  ToolVisibility,
  UiResourceCsp,
  UiResourceMeta,
  UiResourcePermissions,
  UiToolMeta,
  WithheldSetting,
} from './types.js';
export { codePath, configPath, defineBackend, defineCommand, definePrompt, defineTool, programPath, runs } from './define.js';
export { approvalProblem, requireApproved } from './approval.js';
export { MissingCapabilityError, NotFoundError, RequestError, ToolError, UnavailableError, isRequestError, isToolError } from './errors.js';
export { TOOL_ERROR_CODES, isToolErrorCode, toolErrorCode, toolErrorExit } from './error-codes.js';
export type { JsonRpcErrorCode, ToolErrorCode, ToolErrorName } from './error-codes.js';
export { inputRequired, isInputRequired, structured, text } from './result.js';
export { VIEW_MIME_TYPE } from './ui-extension.js';
