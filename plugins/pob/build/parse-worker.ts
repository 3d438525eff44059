// Worker thread entry: parses (and analyzes) one large build away from the event loop. Its heap,
// the parsed element tree, dies with the worker. (parse-job.ts imports only its types.)
import { toolErrorCode, type ToolErrorCode } from '../../../src/backend/index.js';
import { workerSide } from '../../../src/kit/index.js';
import { analyzeBuild, type BuildAnalysis } from './analyze.js';
import { bounded } from './bounded.js';
import { parseBuildXml } from './xml.js';

export interface ParseRequest {
  xml: string;
  field: string;
  analyze: boolean;
}

export type ParseReply =
  { ok: true; analysis?: BuildAnalysis } | { ok: false; error: { message: string; code: ToolErrorCode; data?: unknown } };

const side = workerSide<ParseRequest, never, ParseReply>();
const { xml, field, analyze } = side.data;
try {
  const root = parseBuildXml(xml, field);
  side.post({ ok: true, analysis: analyze ? bounded(analyzeBuild(root)) : undefined });
} catch (error) {
  const e = error as { message: string; code?: unknown; data?: unknown };
  side.post({ ok: false, error: { message: e.message, code: toolErrorCode(e.code), data: e.data } });
}
