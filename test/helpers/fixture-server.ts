// Starts a fixture server (a fake ImHex/editor/HUD script) as a real process and waits for the
// `listening <port>` line it prints once its socket is open.
import { execa, type ResultPromise } from 'execa';

export interface FixtureServer {
  port: number;
  child: ResultPromise;
  /** Kills the process (fakes hold no state worth a graceful stop) and waits for it. */
  stop(): Promise<void>;
}

export async function startFixtureServer(script: string, args: string[], name: string): Promise<FixtureServer> {
  const child = execa(process.execPath, [script, ...args], { reject: false, stdin: 'ignore' });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    void child.then((r) => reject(new Error(`${name} exited (${r.exitCode}): ${r.stderr}`)));
  });
  return {
    port,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await child;
    },
  };
}
