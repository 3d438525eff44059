// What a mounted server prints is input like any other: a line past the message limit, invalid
// UTF-8, lines that are not messages, a deeply nested answer, or half an answer before it dies must
// each end at most that server (reported down, restarted under its policy) while the host and its
// other backends keep serving. The host runs in-process; the upstreams are real child processes.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveInProcess } from '../helpers/in-process.js';
import { tempDir } from '../helpers/tmp.js';
import { fixtureEntry, textOf, waitFor, whenListed, writeConfig } from './helpers.js';

const MiB = 1024 * 1024;

async function host() {
  const tmp = tempDir();
  const journal = path.join(tmp.dir, 'journal.log');
  writeConfig(tmp.dir, {
    servers: {
      fx: fixtureEntry(journal, {}, { FIXTURE_TOOLS_ONLY: '1' }),
      calm: fixtureEntry(journal, {}, { FIXTURE_TOOLS_ONLY: '1' }),
    },
  });
  const session = await serveInProcess({ cwd: tmp.dir });
  await whenListed(session.client, ['fx_flood', 'calm_echo']);
  return session;
}

describe('a mounted stdio server that sends hostile output', () => {
  it('refuses an 11 MiB line for that server only: the call fails naming the limit, the others keep serving, and it restarts', async () => {
    const session = await host();
    try {
      const pid = textOf(await session.client.callTool({ name: 'fx_pid', arguments: {} }));
      const [flooded, other] = await Promise.all([
        session.client.callTool({ name: 'fx_flood', arguments: { bytes: 11 * MiB } }),
        session.client.callTool({ name: 'calm_echo', arguments: { text: 'still here' } }),
      ]);
      expect(flooded.isError).toBe(true);
      expect(textOf(flooded)).toMatch(/upstream fx unavailable: .* sent a message larger than 10485760 bytes/);
      expect(textOf(other)).toBe('echo: still here');
      const status = session.registry.hosts.find((h) => h.name === 'fx');
      expect(status).toBeDefined();
      // After the backoff the next call starts a fresh server.
      const again = await waitFor(async () => {
        const r = await session.client.callTool({ name: 'fx_pid', arguments: {} });
        return r.isError ? undefined : textOf(r);
      }, 'fx to be restarted');
      expect(again).not.toBe(pid);
      expect(textOf(await session.client.callTool({ name: 'calm_echo', arguments: { text: 'after' } }))).toBe('echo: after');
    } finally {
      await session.close();
    }
  });

  it('skips invalid UTF-8 and lines that are not messages, and survives a 100,000-deep answer', async () => {
    const session = await host();
    try {
      const junk = await session.client.callTool({ name: 'fx_junk', arguments: { depth: 100_000 } });
      // The deep answer (it would overflow the stack on its way to a client as JSON) is refused, not passed on.
      expect(junk.isError).toBe(true);
      expect(textOf(junk)).toMatch(/result nests deeper than 512 levels/);
      expect(textOf(await session.client.callTool({ name: 'fx_echo', arguments: { text: 'same server' } }))).toBe('echo: same server');
      expect(textOf(await session.client.callTool({ name: 'calm_echo', arguments: { text: 'other' } }))).toBe('echo: other');
    } finally {
      await session.close();
    }
  });

  it('fails the call of a server that dies halfway through its answer, and keeps the others', async () => {
    const session = await host();
    try {
      const died = await session.client.callTool({ name: 'fx_die-mid-answer', arguments: {} });
      expect(died.isError).toBe(true);
      expect(textOf(died)).toMatch(/upstream fx unavailable: .*exited with code 9/);
      expect(textOf(await session.client.callTool({ name: 'calm_echo', arguments: { text: 'ok' } }))).toBe('echo: ok');
    } finally {
      await session.close();
    }
  });
});
