// oclif's definitions of a flag table (flags.ts), for `--help` and for oclif's parser.
import { Flags } from '@oclif/core';
import { flagProps, type FlagSpec } from './flags.js';

/** oclif definitions for a whole table (`call`, whose argv oclif does not parse, only describes). */
export function oclifFlags(specs: readonly FlagSpec[]) {
  return Object.fromEntries(
    specs
      .filter((s) => s.name !== 'help')
      .map((s) => {
        const props = flagProps(s);
        if (!s.value) return [s.name, Flags.boolean(props)];
        if (s.options) return [s.name, Flags.option({ ...props, options: s.options })()];
        return [s.name, Flags.string(props)];
      }),
  );
}
