// JsonLinesProcess against a real child (a small Node script written here): banner, queue,
// timeouts, crashes, stop and close, and the options' checks. When to replace a child (after N
// requests, above a memory limit) is the caller's policy: the pob plugin's is tested there.
import { describe, expect, it, afterEach } from 'vitest';
import { JsonLinesProcess, ProcessError, type JsonLinesProcessOptions } from '../../src/kit/json-lines/index.js';
import { tempDir } from '../helpers/tmp.js';

const CHILD = String.raw`
const mode = process.env.MODE || 'ok';
if (mode === 'garbage') { process.stdout.write('hello there\n'); setInterval(() => {}, 1000); }
else if (mode === 'silent') { setInterval(() => {}, 1000); }
else if (mode === 'die') { process.stderr.write('cannot find PoB\nsecond line\n'); process.exit(5); }
else if (mode === 'pobapi') {
  // Like the pob-api fork's stdio API: log lines on stdout before the banner, answers without ids.
  process.stderr.write('[Server] starting\n');
  process.stdout.write('Loading main script...\nUniques loaded\n');
  process.stdout.write(JSON.stringify({ ok: true, ready: true }) + '\n');
  let buf = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buf += chunk;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const req = JSON.parse(buf.slice(0, i)); buf = buf.slice(i + 1);
      if (req.action === 'log') process.stdout.write('a log line\n');
      process.stdout.write(JSON.stringify({ ok: true, echo: req.params }) + '\n');
    }
  });
  process.stdin.on('end', () => process.exit(0));
}
else if (mode === 'refuse') { process.stdout.write(JSON.stringify({ ready: false, error: { code: 'NO_ZLIB', message: 'zlib is missing' } }) + '\n'); process.exit(2); }
else {
  let inFlight = 0, maxInFlight = 0, counter = 0, hold = [];
  const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
  process.stdout.write(JSON.stringify({ ready: true, pid: process.pid }) + '\n');
  let buf = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buf += chunk;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) { const line = buf.slice(0, i); buf = buf.slice(i + 1); handle(JSON.parse(line)); }
  });
  process.stdin.on('end', () => process.exit(0));
  function handle(req) {
    inFlight++; maxInFlight = Math.max(maxInFlight, inFlight);
    const reply = (result) => { inFlight--; send({ id: req.id, ok: true, result }); };
    const p = req.params || {};
    switch (req.action) {
      case 'echo': return reply({ echo: p, pid: process.pid });
      case 'sleep': return setTimeout(() => reply({ slept: p.ms, maxInFlight }), p.ms);
      case 'hang': return;
      case 'exit': process.stderr.write('dying now\n'); return setTimeout(() => process.exit(p.code), 10);
      case 'load': counter++; return reply({ counter, pid: process.pid });
      case 'get': return reply({ counter, maxInFlight, pid: process.pid });
      case 'set': counter = p.counter; return reply({ counter });
      case 'alloc': hold.push(Buffer.alloc(p.mb * 1048576, 1)); return reply({ held: hold.length });
      default: inFlight--; send({ id: req.id, ok: false, error: { code: 'UNKNOWN_ACTION' } });
    }
  }
}
`;

const tmp = tempDir('mcphost-jlp-');
const script = tmp.write('child.cjs', CHILD);
const open: JsonLinesProcess[] = [];

function child(mode = 'ok', extra: Partial<JsonLinesProcessOptions> = {}): JsonLinesProcess {
  const p = new JsonLinesProcess({
    command: process.execPath,
    args: [script],
    env: { ...process.env, MODE: mode },
    name: 'test child',
    requestTimeoutMs: 5_000,
    startTimeoutMs: 5_000,
    stopGraceMs: 1_000,
    ...extra,
  });
  open.push(p);
  return p;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
  return !alive(pid);
}

const result = (m: Record<string, unknown>) => m.result as Record<string, any>;

async function rejection(promise: Promise<unknown>): Promise<ProcessError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProcessError);
  return error as ProcessError;
}

describe('JsonLinesProcess', () => {
  it('starts on the first request, reads the banner and correlates answers', async () => {
    const p = child();
    expect(p.running).toBe(false);
    const answer = await p.request({ action: 'echo', params: { a: 1 } });
    expect(result(answer).echo).toEqual({ a: 1 });
    expect(p.banner).toMatchObject({ ready: true, pid: p.pid });
    const again = await p.request({ action: 'echo', params: { b: 2 } });
    expect(result(again).pid).toBe(result(answer).pid);
    expect(again.id).not.toBe(answer.id);
  });

  it('keeps one request in flight and answers queued requests in order', async () => {
    const p = child();
    const answers = await Promise.all([40, 10, 30, 5, 20].map((ms) => p.request({ action: 'sleep', params: { ms } })));
    expect(answers.map((a) => result(a).slept)).toEqual([40, 10, 30, 5, 20]);
    expect(result(await p.request({ action: 'get' })).maxInFlight).toBe(1);
  });

  it('kills a child that does not answer in time and starts a fresh one on the next call', async () => {
    const p = child();
    const first = result(await p.request({ action: 'echo' })).pid as number;
    const error = await rejection(p.request({ action: 'hang' }, { timeoutMs: 300 }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toMatch(/no answer to hang within 300 ms/);
    expect(await gone(first)).toBe(true);
    const next = result(await p.request({ action: 'echo' })).pid;
    expect(next).not.toBe(first);
    expect(p.stats.timeouts).toBe(1);
  });

  it('kills a busy child at once on kill(): the request in flight fails, and the next starts a fresh child', async () => {
    const p = child();
    const first = result(await p.request({ action: 'echo' })).pid as number;
    const hung = p.request({ action: 'hang' });
    await new Promise((r) => setTimeout(r, 100)); // sent, and hanging
    await p.kill();
    const error = await rejection(hung);
    expect(error.code).toBe('CLOSED');
    expect(await gone(first)).toBe(true);
    const next = result(await p.request({ action: 'echo' })).pid;
    expect(next).not.toBe(first);
    // Asked for, so neither a crash nor a timeout.
    expect(p.stats).toMatchObject({ crashes: 0, timeouts: 0, starts: 2 });
  });

  it('fails a request whose child exits with the exit code and the last stderr lines', async () => {
    const p = child();
    const first = result(await p.request({ action: 'echo' })).pid;
    const error = await rejection(p.request({ action: 'exit', params: { code: 3 } }));
    expect(error.code).toBe('EXITED');
    expect(error.exitCode).toBe(3);
    expect(error.stderr).toContain('dying now');
    expect(error.message).toMatch(/exited with code 3.*\n.*dying now/s);
    const next = result(await p.request({ action: 'echo' }));
    expect(next.pid).toBeTypeOf('number');
    expect(next.pid).not.toBe(first);
    expect(p.stats.crashes).toBe(1);
  });

  it('fails the requests queued behind a crash only if they cannot start again', async () => {
    const p = child();
    const [crash, after] = await Promise.allSettled([p.request({ action: 'exit', params: { code: 4 } }), p.request({ action: 'get' })]);
    expect(crash.status).toBe('rejected');
    expect(after.status).toBe('fulfilled');
  });

  it('reports its resident memory, and a new start number for every fresh child', async () => {
    const p = child();
    await p.request({ action: 'echo' });
    const base = (await p.rss())!;
    expect(base).toBeGreaterThan(1_000_000);
    await p.request({ action: 'alloc', params: { mb: 64 } });
    expect((await p.rss())!).toBeGreaterThan(base + 32 * 1048576);
    expect(p.stats.starts).toBe(1);
    await p.stop();
    await p.request({ action: 'echo' });
    expect(p.stats.starts).toBe(2);
  });

  it('normalises its options in one place: bad values are refused naming the option', () => {
    expect(() => new JsonLinesProcess({ command: '' })).toThrow(/Expected `command` to be a non-empty string, got ""/);
    expect(() => new JsonLinesProcess({ command: 'x', requestTimeoutMs: 0 })).toThrow(
      /Expected `requestTimeoutMs` to be a positive number of milliseconds, got 0/,
    );
    expect(() => new JsonLinesProcess({ command: 'x', startTimeoutMs: -1 })).toThrow(/startTimeoutMs/);
  });

  it('takes a start budget for one start, overriding startTimeoutMs', async () => {
    const slow = await rejection(child('silent', { startTimeoutMs: 60_000 }).start(300));
    expect(slow.code).toBe('START_TIMEOUT');
    expect(slow.message).toMatch(/printed no ready line within 300 ms/);
  });

  it('reports a refused banner, an early exit, garbage, silence and a missing command', async () => {
    const refused = await rejection(child('refuse').start());
    expect(refused.code).toBe('NOT_READY');
    expect(refused.message).toMatch(/zlib is missing/);
    expect(refused.detail).toMatchObject({ error: { code: 'NO_ZLIB' } });

    const died = await rejection(child('die').start());
    expect(died.code).toBe('NOT_READY');
    expect(died.message).toMatch(/exited with code 5 before it was ready/);
    expect(died.exitCode).toBe(5);
    expect(died.stderr).toEqual(['cannot find PoB', 'second line']);

    const garbage = await rejection(child('garbage').start());
    expect(garbage.code).toBe('NOT_READY');
    expect(garbage.detail).toBe('hello there');

    const silent = await rejection(child('silent', { startTimeoutMs: 300 }).start());
    expect(silent.code).toBe('START_TIMEOUT');

    const missing = await rejection(child('ok', { command: 'no-such-command-mcphost' }).request({ action: 'echo' }));
    expect(missing.code).toBe('SPAWN');
    expect(missing.message).toMatch(/ENOENT/);
  });

  it('drops an aborted queued request and keeps the slot of an aborted one in flight', async () => {
    const p = child();
    await p.start();
    const slow = new AbortController();
    const queued = new AbortController();
    const inFlight = p.request({ action: 'sleep', params: { ms: 200 } }, { signal: slow.signal });
    const dropped = p.request({ action: 'load' }, { signal: queued.signal });
    const after = p.request({ action: 'get' });
    queued.abort();
    slow.abort();
    expect((await rejection(inFlight)).code).toBe('ABORTED');
    expect((await rejection(dropped)).code).toBe('ABORTED');
    const state = result(await after);
    expect(state.counter).toBe(0);
    expect(state.maxInFlight).toBe(1);
  });

  it('stops idempotently, restarts on demand, and refuses requests once closed', async () => {
    const p = child();
    const pid = result(await p.request({ action: 'echo' })).pid;
    await Promise.all([p.stop(), p.stop()]);
    await p.stop();
    expect(p.running).toBe(false);
    expect(await gone(pid)).toBe(true);
    const again = result(await p.request({ action: 'echo' })).pid;
    expect(again).not.toBe(pid);
    const slow = rejection(p.request({ action: 'sleep', params: { ms: 100 } }));
    const queued = rejection(p.request({ action: 'echo' }));
    await Promise.all([p.close(), p.close()]);
    expect(['CLOSED', 'EXITED']).toContain((await slow).code);
    expect((await queued).code).toBe('CLOSED');
    expect((await rejection(p.request({ action: 'echo' }))).code).toBe('CLOSED');
    expect(await gone(again)).toBe(true);
  });

  it('reads a child that logs on stdout and answers without ids (stdoutNoise, fifo)', async () => {
    const seen: string[] = [];
    const p = child('pobapi', { stdoutNoise: true, fifo: true, onStartOutput: (line) => void seen.push(line) });
    const answers = await Promise.all([1, 2, 3].map((n) => p.request({ action: n === 2 ? 'log' : 'echo', params: n })));
    expect(answers.map((a) => a.echo)).toEqual([1, 2, 3]);
    expect(p.banner).toEqual({ ok: true, ready: true });
    expect(seen).toEqual(expect.arrayContaining(['[Server] starting', 'Loading main script...', 'Uniques loaded']));
    const strict = await rejection(child('pobapi').start());
    expect(strict.code).toBe('NOT_READY');
  });
});
