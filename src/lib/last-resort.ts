// The one thing that can keep a process from exiting once it calls process.exit: a libuv thread
// stuck in the kernel (a plugin that opened a FIFO for reading, a read from a hung network file
// system). Exiting joins those threads and waits for ever. So when the shutdown deadline has
// passed, a small detached shell is started first: it watches the process and, if it is still
// there after `graceMs`, kills it. It ends on its own as soon as the process is gone, so a normal
// exit leaves nothing behind. It is started once something held shutdown up, and at every exit
// while a request is still on libuv's thread pool (a shutdown that finished in time can still be
// held by one: the backends closed, but a read of theirs is stuck in the kernel).
import { spawn } from 'node:child_process';

export function killIfStillAlive(pid: number, graceMs = 1_000): void {
  if (process.platform === 'win32') return;
  const ticks = Math.max(1, Math.ceil(graceMs / 100));
  const script = `i=0; while kill -0 ${pid} 2>/dev/null; do i=$((i+1)); if [ $i -gt ${ticks} ]; then kill -9 ${pid}; exit 0; fi; sleep 0.1; done`;
  try {
    spawn('/bin/sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
  } catch {
    // Nothing more can be done from here.
  }
}

/** Work on libuv's thread pool (file system, DNS lookups): what can keep process.exit from returning. */
const POOLED = /^(FSReq|GetAddrInfo|GetNameInfo)/;

/** True when a thread-pool request is still pending: exiting may then wait on a stuck thread. */
export function threadPoolBusy(): boolean {
  return process.getActiveResourcesInfo().some((kind) => POOLED.test(kind));
}
