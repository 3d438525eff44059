// pino-roll ships no types: the part of its API mcphost uses (pino-roll.js, v4: a SonicBoom stream
// that rolls to `<file>.<n><extension>` past `size`, keeping `limit.count` older files).
declare module 'pino-roll' {
  import type { Writable } from 'node:stream';
  interface PinoRollOptions {
    file: string;
    size?: string | number;
    mkdir?: boolean;
    limit?: { count: number; removeOtherLogFiles?: boolean };
  }
  export default function pinoRoll(options: PinoRollOptions): Promise<Writable>;
}
