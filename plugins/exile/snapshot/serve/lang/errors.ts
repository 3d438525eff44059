// Every failure of an expression carries the 0-based character offset it points at, so a message
// reads `unexpected token ')' at 17` and a client can underline the spot.

export type ExprErrorCode = 'EXPR_SYNTAX' | 'EXPR_EVAL' | 'NOT_IN_SNAPSHOT' | 'LIMIT_EXCEEDED';

export class ExprError extends Error {
  readonly position: number;
  readonly code: ExprErrorCode;
  constructor(message: string, position: number, code: ExprErrorCode = 'EXPR_EVAL', hint?: string) {
    super(`${message} at ${position}${hint ? ` (${hint})` : ''}`);
    this.name = 'ExprError';
    this.position = position;
    this.code = code;
  }
}

export function syntaxError(message: string, position: number, hint?: string): ExprError {
  return new ExprError(message, position, 'EXPR_SYNTAX', hint);
}
