// Colour for people, never for programs: on only when the stream is a terminal, NO_COLOR is unset or
// empty (https://no-color.org) and TERM is not "dumb"; FORCE_COLOR (not "0") turns it on when piped.
// picocolors' own detection also colours whenever CI is set, which would put escapes into piped
// output on CI: the decision is made here and picocolors only paints.
import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

function colorEnabled(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

export function colorsFor(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): Colors {
  return pc.createColors(colorEnabled(stream, env));
}
