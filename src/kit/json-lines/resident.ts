// Resident memory of a process, for callers that replace a child grown too large.
import { readFile } from 'node:fs/promises';

/** Resident memory of a process in bytes: /proc on Linux, `ps` elsewhere; undefined when unknown. */
export async function residentBytes(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : undefined;
  } catch {
    if (process.platform === 'linux' || process.platform === 'win32') return undefined;
    const { execa } = await import('execa');
    const ps = await execa('ps', ['-o', 'rss=', '-p', String(pid)], { reject: false });
    const kb = Number(String(ps.stdout).trim());
    return ps.exitCode === 0 && Number.isFinite(kb) && kb > 0 ? kb * 1024 : undefined;
  }
}
