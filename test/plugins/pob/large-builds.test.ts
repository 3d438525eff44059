// Hostile and huge builds (issue 14, case 5): a share code of a few hundred kilobytes that inflates
// to 56.7 MB of XML, a build file past the cap, and a large build under it. None may hold up
// another client's request; a call that is cancelled stops its parse.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { liveWorkers as activeParseWorkers } from '../../../src/kit/index.ts';
import { SHARED_DATA } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { pobSession, type PobSession } from './helpers.js';

const tmp = tempDir('mcphost-pob-large-');
const SMALL = path.join(SHARED_DATA, 'pob-builds/occvortex-3_26.xml');
const UNIT =
  '<Skill enabled="true" slot="Body Armour" label="x"><Gem nameSpec="Fireball" level="20" quality="20" enabled="true"/></Skill>\n';

/** A well-formed build whose skills section repeats one group until the XML is `mb` megabytes. */
function bigBuild(mb: number): string {
  const body = UNIT.repeat(Math.floor((mb * 1024 * 1024) / UNIT.length));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<PathOfBuilding>\n<Build level="90" className="Witch"/>\n<Skills>\n${body}</Skills>\n</PathOfBuilding>\n`;
}

const shareCode = (xml: string) => deflateSync(xml, { level: 1 }).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');

describe('pob on builds far larger than real ones', () => {
  let s: PobSession;
  beforeAll(async () => {
    s = await pobSession(tmp.dir, {});
  });
  afterAll(async () => {
    await s?.close();
  });

  it('refuses a share code that inflates past the cap, at once, while other requests are answered', async () => {
    const bomb = shareCode(bigBuild(56.7));
    expect(bomb.length).toBeLessThan(1_000_000);
    const hostile = s.fails('pob_analyze_build', { build: bomb });
    const other = s.ok('pob_analyze_build', { build: SMALL });
    const [refused, answered] = await Promise.all([hostile, other]);
    expect(answered.className).toBe('Witch');
    expect(refused).toMatchObject({
      code: 'TOO_LARGE',
      message: expect.stringMatching(
        /^build: too large: the share code \(\d+ characters\) inflates to more than that, and a build may be at most 16 MiB/,
      ),
    });
    const file = tmp.write('huge.xml', bigBuild(17));
    expect((await s.fails('pob_decode', { code: file })).message).toMatch(/^code \(.*huge\.xml\): too large: the file is \d+ bytes/);
  });

  it('cuts the lists of a made-up build to 1000 entries and says what was cut', async () => {
    const xml = bigBuild((UNIT.length * 1500) / 1024 / 1024);
    const analysis = await s.ok('pob_analyze_build', { build: xml });
    expect(analysis.skills.groups).toHaveLength(1000);
    expect(analysis.truncated).toEqual({ 'skills.groups': 1500 });
  });

  it('parses a large build in a worker: another request is answered meanwhile, and a cancel stops the parse', async () => {
    const file = path.join(tmp.dir, 'large.xml');
    writeFileSync(file, bigBuild(12));
    const cancel = new AbortController();
    let largeSettled = false;
    const large = s.client
      .callTool({ name: 'pob_analyze_build', arguments: { build: file } }, { signal: cancel.signal })
      .finally(() => (largeSettled = true));
    await vi.waitFor(() => expect(activeParseWorkers()).toBe(1));
    const small = await s.ok('pob_compare_builds', { a: SMALL, b: SMALL });
    expect(small.stats).toEqual({});
    expect(largeSettled).toBe(false);
    cancel.abort('the user gave up');
    await expect(large).rejects.toThrow();
    await vi.waitFor(() => expect(activeParseWorkers()).toBe(0));
  });
});
