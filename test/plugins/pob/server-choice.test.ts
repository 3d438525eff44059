// Which Lua server runs PoB, from the seed's settings: mcphost's own on an unmodified PoB, the
// pob-api fork's own stdio API when POB_ARGS or POB_FORK_PATH is set or the folder holds the fork.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../plugins/pob/config.ts';
import { chooseServer } from '../../../plugins/pob/live/server-choice.ts';
import { tempDir } from '../../helpers/tmp.js';

const tmp = tempDir('mcphost-pob-choice-');
const touch = (file: string) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '');
};
const plain = path.join(tmp.dir, 'pob');
touch(path.join(plain, 'src/HeadlessWrapper.lua'));
const fork = path.join(tmp.dir, 'fork');
touch(path.join(fork, 'src/API/Handlers.lua'));
const home = path.join(tmp.dir, 'home');
const choose = (settings: Record<string, unknown>, at = home) => chooseServer(configSchema.parse(settings), at);

describe('chooseServer', () => {
  it("runs mcphost's server on an unmodified PoB and the fork's API where the folder holds it", () => {
    expect(choose({ pobPath: plain })).toMatchObject({ kind: 'mcphost', pobPath: plain, why: 'an unmodified PoB checkout' });
    expect(choose({ pobPath: fork })).toMatchObject({ kind: 'pob-api', src: path.join(fork, 'src'), args: ['HeadlessWrapper.lua'] });
    expect(choose({ pobPath: fork, server: 'mcphost' })).toMatchObject({ kind: 'mcphost', pobPath: fork });
    expect(choose({ pobPath: plain, server: 'pob-api' })).toMatchObject({ kind: 'pob-api', src: path.join(plain, 'src') });
  });

  it('follows POB_ARGS and POB_FORK_PATH, and the seed default ~/Projects/pob-api-fork/src', () => {
    expect(choose({ pobPath: plain, args: 'HeadlessWrapper.lua --stdio' })).toMatchObject({
      kind: 'pob-api',
      args: ['HeadlessWrapper.lua', '--stdio'],
      why: 'POB_ARGS (plugins.pob.args) is set',
    });
    expect(choose({ forkPath: path.join(fork, 'src') })).toMatchObject({ kind: 'pob-api', src: path.join(fork, 'src') });
    expect(choose({ forkPath: path.join(fork, 'src'), server: 'mcphost' })).toMatchObject({ kind: 'mcphost', pobPath: fork });
    expect(choose({})).toMatchObject({ kind: 'mcphost', pobPath: undefined, why: 'no PoB configured' });
    touch(path.join(home, 'Projects/pob-api-fork/src/API/Handlers.lua'));
    expect(choose({})).toMatchObject({ kind: 'pob-api', src: path.join(home, 'Projects/pob-api-fork/src') });
  });
});
