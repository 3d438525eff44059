// `mcphost doctor` reports what the imhex plugin would serve, or what is wrong and how to fix it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { startFakeImHex, type FakeImHex } from '../../fixtures/imhex/fake-imhex.js';
import { writeImHexConfig } from './helpers.ts';

const tmp = tempDir('imhex-doctor-');
const flat = (s: string) => s.replace(/\s*›\s*/g, ' ');

describe('mcphost doctor with imhex', () => {
  let fake: FakeImHex;
  beforeAll(async () => {
    fake = await startFakeImHex({ data: Buffer.from('abc'), noProvider: true });
  });
  afterAll(() => fake?.close());

  it('names the file from IMHEX_FILE and its size, or how to fix a wrong path', async () => {
    const dir = path.join(tmp.dir, 'env');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'rom.bin'), Buffer.alloc(1234));
    const ok = await runCli(['doctor', '--plugins', 'imhex'], { cwd: dir, env: isolatedEnv(dir, { IMHEX_FILE: 'rom.bin' }) });
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toMatch(/imhex .*serving file .*rom\.bin \(read-only\), 1234 bytes/);
    writeImHexConfig(dir, { file: 'missing.bin' });
    const bad = await runCli(['doctor'], { cwd: dir });
    expect(bad.exitCode).not.toBe(0);
    expect(flat(bad.stdout + bad.stderr)).toMatch(/missing\.bin: ENOENT — set plugins\.imhex\.file \(or pass --file\) to an existing file/);
  });

  it('says when ImHex is reachable but has no file open', async () => {
    const dir = path.join(tmp.dir, 'imhex');
    mkdirSync(dir);
    writeImHexConfig(dir, { mode: 'imhex', port: fake.port });
    const r = await runCli(['doctor'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`ImHex reachable at 127.0.0.1:${fake.port}, but no file is open in it: open one in ImHex`);
  });
});
