// The shutdown sequence in-process, with the signals sent through an emitter and exit recorded:
// the deadline, a signal before the host is ready, and repeated signals. The real binary with real
// signals and children is test/e2e/lifecycle.test.ts.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { installShutdown } from '../../src/server/lifecycle.js';

function harness(deadlineMs: number) {
  const signals = new EventEmitter();
  const lines: string[] = [];
  const exits: number[] = [];
  let exited!: () => void;
  const done = new Promise<void>((resolve) => (exited = resolve));
  const shutdown = installShutdown({
    logger: createLogger({ level: 'debug', write: (line) => void lines.push(line.trim()) }),
    deadlineMs,
    signals: signals as unknown as NodeJS.Process,
    onOverdue: () => void lines.push('overdue'),
    exit: (code) => {
      exits.push(code);
      exited();
    },
  });
  return { signals, lines, exits, done, shutdown };
}

describe('shutdown', () => {
  it('exits 0 at the deadline when closing hangs, saying so', async () => {
    const h = harness(50);
    h.shutdown.ready(() => new Promise(() => undefined));
    h.signals.emit('SIGTERM');
    await h.done;
    expect(h.exits).toEqual([0]);
    expect(h.lines).toContain('[mcphost] warn: shutdown took longer than 50 ms; exiting anyway');
    expect(h.lines).toContain('overdue');
  });

  it('closes once, whatever the number of signals', async () => {
    const h = harness(5_000);
    let closes = 0;
    h.shutdown.ready(async () => void closes++);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGINT']) h.signals.emit(signal);
    await h.done;
    expect({ closes, exits: h.exits }).toEqual({ closes: 1, exits: [0] });
  });

  it('waits for the host to be ready when a signal arrives while it starts, then closes it', async () => {
    const h = harness(5_000);
    h.signals.emit('SIGTERM');
    expect(h.exits).toEqual([]);
    let closed = false;
    h.shutdown.ready(async () => void (closed = true));
    await h.done;
    expect({ closed, exits: h.exits }).toEqual({ closed: true, exits: [0] });
    expect(h.lines).toContain('[mcphost] debug: shutting down (SIGTERM)');
  });
});
