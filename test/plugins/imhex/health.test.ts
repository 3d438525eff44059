// `mcphost doctor` (its report, in-process) says what the imhex plugin would serve, or what is
// wrong and how to fix it. Stock ImHex found by mode auto: stock-imhex.test.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorReport } from '../../../src/app/inspect.ts';
import { startFakeImHex, type FakeImHex } from '../../fixtures/imhex/fake-imhex.js';
import { isolatedEnv } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { writeImHexConfig } from './helpers.ts';

const tmp = tempDir('imhex-doctor-');
const doctor = (cwd: string, env = isolatedEnv(cwd)) => doctorReport({ cwd, env, plugins: ['imhex'], writeLog: () => undefined });

describe('doctor with imhex', () => {
  let fake: FakeImHex;
  beforeAll(async () => {
    fake = await startFakeImHex({ data: Buffer.from('abc'), noProvider: true });
  });
  afterAll(() => fake?.close());

  it('names the file from IMHEX_FILE and its size, or how to fix a wrong path', async () => {
    const dir = path.join(tmp.dir, 'env');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'rom.bin'), Buffer.alloc(1234));
    const ok = await doctor(dir, isolatedEnv(dir, { IMHEX_FILE: 'rom.bin' }));
    expect(ok.ok).toBe(true);
    expect(ok.plugins[0].message).toMatch(/^serving file .*rom\.bin \(read-only\), 1234 bytes$/);
    writeImHexConfig(dir, { file: 'missing.bin' });
    const bad = await doctor(dir);
    expect(bad.ok).toBe(false);
    expect(bad.plugins[0].message).toMatch(/missing\.bin: ENOENT — set plugins\.imhex\.file \(or pass --file\) to an existing file/);
  });

  it('says when ImHex is reachable but has no file open', async () => {
    const dir = path.join(tmp.dir, 'imhex');
    mkdirSync(dir);
    writeImHexConfig(dir, { mode: 'imhex', port: fake.port });
    const r = await doctor(dir);
    expect(r.ok).toBe(true);
    expect(r.plugins[0].message).toBe(`ImHex reachable at 127.0.0.1:${fake.port}, but no file is open in it: open one in ImHex`);
  });
});
