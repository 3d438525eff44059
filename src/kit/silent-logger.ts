// A logger that says nothing: for a plugin's code run outside the host (a script, a test) that
// still wants the Logger a context would give it.
import type { Logger } from '../backend/types.js';

export const silentLogger: Logger = {
  error() {},
  warn() {},
  info() {},
  debug() {},
  child: () => silentLogger,
};
