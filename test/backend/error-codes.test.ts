// The tool error codes (src/backend/error-codes.ts): docs/reference.md's "Tool error codes" table is
// the contract's table, row by row, and a code from across a boundary is one of the table's or a
// TOOL_ERROR. test/e2e/tool-error-codes.test.ts holds the exits to the real binary.
import { describe, expect, it } from 'vitest';
import { TOOL_ERROR_CODES, isToolErrorCode, toolErrorCode, toolErrorExit } from '../../src/backend/index.js';
import { documentedCodes } from '../helpers/docs.js';

describe('the tool error codes', () => {
  it('are documented as the contract has them: every code, its exit and its meaning', () => {
    const documented = documentedCodes();
    expect([...documented.keys()]).toEqual(Object.keys(TOOL_ERROR_CODES));
    for (const [code, { exit, means }] of Object.entries(TOOL_ERROR_CODES))
      expect(documented.get(code), code).toEqual({ exit: String(exit), means });
  });

  it('exit 1 for a bad argument, 4 for a backend that is down, 5 for a tool that failed', () => {
    expect([toolErrorExit('INVALID_ARGUMENT'), toolErrorExit('INVALID_ARGUMENTS'), toolErrorExit(-32602)]).toEqual([1, 1, 1]);
    expect([toolErrorExit('UNAVAILABLE'), toolErrorExit('SHUTTING_DOWN')]).toEqual([4, 4]);
    expect([toolErrorExit('TOOL_ERROR'), toolErrorExit('TIMEOUT'), toolErrorExit(-32603)]).toEqual([5, 5, 5]);
  });

  it('keeps a code from across a boundary only when it is one, never one inherited from Object', () => {
    expect(toolErrorCode('BUSY')).toBe('BUSY');
    expect(toolErrorCode(-32001)).toBe(-32001);
    for (const foreign of ['BAD_PARAMS', 'toString', '__proto__', '', 1.5, null, undefined, { code: 'BUSY' }]) {
      expect(isToolErrorCode(foreign), String(foreign)).toBe(false);
      expect(toolErrorCode(foreign)).toBe('TOOL_ERROR');
    }
    expect(toolErrorCode('NOPE', 'LUA_ERROR')).toBe('LUA_ERROR');
  });
});
