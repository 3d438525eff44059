// Ids of what a host holds in memory for a 2026-era client between its requests: a running task
// and a call paused for its client's answer. Behind a round-robin balancer the next request about
// one may land on any replica, so the id says where it lives: `<replicaId>.<run>.<time>.<random>.<tag>`
// (no `<replicaId>.` without http.replicaId). nginx routes tasks/* by it (the Mcp-Name header
// carries the task id); a replica that gets another's sends it there (held-elsewhere.ts); and one
// that does not hold it can tell "another replica's", "mine, from before I restarted" (`run`
// differs) and "never handed out" apart. `tag` is an HMAC over the rest and the owner's callerKey
// with the state key (MCPHOST_STATE_KEY, shared by the replicas), so only an id really handed to
// this caller is ever answered as anything but unknown.
import { createHmac, randomBytes } from 'node:crypto';

/** Where an id handed to its caller lives, as this host sees it. */
export type Holder =
  | { where: 'here' }
  /** This replica minted it in an earlier run (it restarted since): what it held is gone. */
  | { where: 'restarted'; replica?: string; createdAt: number }
  | { where: 'replica'; replica: string; createdAt: number };

const TAG_BYTES = 12;

export class HeldIds {
  /** This process: an id minted by an earlier run of the same replica is told apart by it. */
  readonly run = randomBytes(4).toString('hex');

  constructor(
    private readonly key: Uint8Array,
    readonly replica?: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new id for something held here for `owner` (its callerKey). */
  mint(owner: string): string {
    const base = `${this.replica ? `${this.replica}.` : ''}${this.run}.${this.now().toString(36)}.${randomBytes(16).toString('hex')}`;
    return `${base}.${this.tag(base, owner)}`;
  }

  /** Where `id` lives; undefined for an id not handed to `owner` (forged, another caller's, another key's). */
  holder(id: string, owner: string): Holder | undefined {
    if (id.length > 200) return undefined;
    const parts = id.split('.');
    if (parts.length !== 4 && parts.length !== 5) return undefined;
    const [replica, run, time] = parts.length === 5 ? parts : [undefined, ...parts];
    const tag = parts.at(-1)!;
    const base = parts.slice(0, -1).join('.');
    if (!/^[0-9a-f]{8}$/.test(run!) || !/^[0-9a-z]{1,11}$/.test(time!) || tag !== this.tag(base, owner)) return undefined;
    const createdAt = parseInt(time!, 36);
    if (replica !== this.replica) return replica === undefined ? undefined : { where: 'replica', replica, createdAt };
    return run === this.run ? { where: 'here' } : { where: 'restarted', replica, createdAt };
  }

  private tag(base: string, owner: string): string {
    return createHmac('sha256', this.key)
      .update(`mcphost.held:${base}\u0000${owner}`)
      .digest()
      .subarray(0, TAG_BYTES)
      .toString('base64url');
  }
}
