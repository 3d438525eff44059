import { readFileSync } from 'node:fs';

/** Whether a process is running. A zombie (exited, waiting for a reaper this sandbox may lack) is not. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
