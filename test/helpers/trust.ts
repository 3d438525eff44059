// `mcphost trust` as a user runs it before using a project's .mcprc that starts commands or
// imports modules: in-process, with the same environment the test then runs mcphost with (its HOME
// holds the record of approvals, so nothing is written outside the test's folder).
import { manageTrust, type TrustReport } from '../../src/app/trust.js';
import { isolatedEnv } from './cli.js';

/** Approves what mcphost reads in `dir` (or `file`), with HOME = `dir` unless `env` says otherwise. */
export function approve(dir: string, options: { file?: string; env?: Record<string, string | undefined> } = {}): Promise<TrustReport> {
  const env = (options.env ?? isolatedEnv(dir)) as NodeJS.ProcessEnv;
  return manageTrust({ cwd: dir, env, file: options.file, action: 'approve' });
}
