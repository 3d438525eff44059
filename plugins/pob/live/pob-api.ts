// The pob-api fork's protocol, as its source has it (charleslucas/PathOfBuilding: src/API/Handlers.lua
// @188c740f, src/API/BuildOps.lua @09e062c8, src/API/TcpServer.lua @02914220; the stdio API/Server.lua
// runs the same handlers): `{action, params}` in; out, the handler's table as one line with no id,
// `{ok:true, stats|tree|info|config|xml|output: …}` or `{ok:false, error:"text"}`. This module turns
// each action of mcphost's protocol into the fork's actions and its answers into the results the
// pob_lua_* tools document. What the fork cannot tell is left out; README "pob-api fork" lists it.
import { ToolError } from '../../../src/backend/index.js';
import { changes, HEADLINE, objectOf, pick, sourcesOf, treeOf, type ForkTree } from './pob-api-values.js';

export type Answer = Record<string, unknown>;
/**
 * Sends one fork action and resolves with its answer when `ok` is true; a refusal is thrown as a
 * ToolError. `always` sends it even when the call was cancelled meanwhile (an undo must happen).
 */
export type ForkSend = (action: string, params?: Record<string, unknown>, options?: { always?: boolean }) => Promise<Answer>;

/** The only inputs the fork's set_config changes (BuildOps.set_config). */
const FORK_CONFIG_KEYS = ['bandit', 'pantheonMajorGod', 'pantheonMinorGod', 'enemyLevel'];

/**
 * What set_config also takes in the API proposed upstream, PathOfBuildingCommunity/PathOfBuilding
 * PR #9505 (Ian Andersen's `api-stdio` branch, the fork's origin): "enemy stat overrides", "charge
 * toggles", "condition flags", "buff/enemy modifiers", as its description lists them. Same wire
 * (`{action, params}` in, `{ok, …}` out, the `{ready:true}` banner: ianderse/pob-mcp
 * src/pobLuaBridge.ts @3e71c14, the client written against it), so the two are told apart by what
 * they answer: the PR's get_build_info reads the class from `build.spec.curClassName`, the fork's
 * from a field PoB does not have, so only the PR's names the class.
 */
const PR9505_CONFIG_KEYS = [
  ...FORK_CONFIG_KEYS,
  'enemyFireResist',
  'enemyColdResist',
  'enemyLightningResist',
  'enemyChaosResist',
  'enemyArmour',
  'enemyEvasion',
  'usePowerCharges',
  'useFrenzyCharges',
  'useEnduranceCharges',
  'conditionFortify',
  'conditionLeeching',
  'conditionShockedGround',
  'buffOnslaught',
  'enemyIsBoss',
];

/** The API of PR #9505 (get_build_info names the class), rather than the fork's. */
async function isPr9505(send: ForkSend): Promise<boolean> {
  return typeof objectOf((await send('get_build_info')).info).className === 'string';
}

/** `{ok:false, error}` as a ToolError carrying the fork's own text. */
export function forkFailure(answer: Answer, action: string): ToolError {
  const text = typeof answer.error === 'string' && answer.error !== '' ? answer.error : `PoB refused ${action} (no reason given)`;
  return new ToolError(text, { code: text.startsWith('unknown action:') ? 'UNKNOWN_ACTION' : 'POB_ERROR', data: { action } });
}

/** The named stats, read with get_stats (which makes PoB rebuild its output first). */
async function statsOf(send: ForkSend, fields: string[]): Promise<Record<string, unknown>> {
  const wanted = [...new Set(fields.flatMap(sourcesOf))];
  const { stats } = await send('get_stats', { fields: wanted });
  const out = objectOf(stats);
  delete out._meta;
  return out;
}

const idList = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);

/** An edit followed by its report: the given stats before and after, and what the tree gained and lost. */
async function edited(
  send: ForkSend,
  fields: string[],
  edit: (before: ForkTree) => Promise<Answer>,
): Promise<{ tree: ForkTree; before: ForkTree; allocated: number[]; deallocated: number[]; changes: ReturnType<typeof changes> }> {
  const before = treeOf((await send('get_tree')).tree);
  const statsBefore = pick(await statsOf(send, fields), fields).values;
  const tree = treeOf((await edit(before)).tree);
  const statsAfter = pick(await statsOf(send, fields), fields).values;
  const had = new Set(before.nodes);
  const has = new Set(tree.nodes);
  return {
    tree,
    before,
    allocated: tree.nodes.filter((id) => !had.has(id)),
    deallocated: before.nodes.filter((id) => !has.has(id)),
    changes: changes(statsBefore, statsAfter, fields),
  };
}

function version(raw: unknown) {
  const v = objectOf(raw);
  return {
    server: 'pob-api',
    pob: { version: v.number, branch: v.branch, platform: v.platform },
    api: { version: v.apiVersion ?? null, mode: v.mode ?? null },
  };
}

type Params = Record<string, unknown>;

const actions: Record<string, (send: ForkSend, p: Params) => Promise<unknown>> = {
  ping: async (send) => ({ pong: (await send('ping')).pong === true }),
  version: async (send) => version((await send('version')).version),
  async load_build_xml(send, p) {
    const name = typeof p.name === 'string' ? p.name : 'mcphost';
    await send('load_build_xml', { xml: p.xml, name });
    const info = objectOf((await send('get_build_info')).info);
    // The fork answers ok whatever PoB made of the XML; PoB falls back to an empty build it names itself.
    if (info.name !== name)
      throw new ToolError(
        `Path of Building did not load the build: it shows ${JSON.stringify(info.name ?? null)} (level ${String(info.level ?? '?')}) instead`,
        { code: 'LOAD_FAILED', data: { info } },
      );
    // A tree PoB cannot read (an unknown tree version) leaves it on an empty tree; the reason is in
    // a dialog the fork does not report.
    const saved = /<Spec\s[^>]*\bnodes="([^"]*)"/.exec(String(p.xml))?.[1]?.split(',').filter(Boolean).length ?? 0;
    const tree = treeOf((await send('get_tree')).tree);
    if (saved > 1 && tree.nodes.length <= 1)
      throw new ToolError(
        `Path of Building could not load the build's passive tree (${saved} nodes saved, none allocated; an unknown tree version${tree.treeVersion ? `? PoB is on ${tree.treeVersion}` : '?'})`,
        { code: 'LOAD_FAILED', data: { info } },
      );
    return info;
  },
  async get_stats(send, p) {
    const fields = Array.isArray(p.fields) ? (p.fields as string[]) : undefined;
    if (fields) {
      const { values, missing } = pick(await statsOf(send, fields), fields);
      return { stats: values, missing };
    }
    const all = objectOf((await send('get_stats')).stats);
    delete all._meta;
    return { stats: Object.fromEntries(Object.entries(all).filter(([, v]) => typeof v === 'number')) };
  },
  get_tree: async (send) => treeOf((await send('get_tree')).tree),
  async set_tree(send, p) {
    // JSON object keys reach PoB's ImportFromNodeList as strings; it looks selections up by number,
    // so every mastery node given would be dropped from the tree.
    if (p.masteryEffects && Object.keys(objectOf(p.masteryEffects)).length > 0)
      throw new ToolError(
        "masteryEffects: over the pob-api fork, pob_lua_set_tree cannot set mastery effects (the fork hands PoB the JSON's string keys, and PoB then drops those mastery nodes); leave masteryEffects out to keep the current choices, or run mcphost's own Lua server (plugins.pob.server: mcphost)",
        { code: 'INVALID_ARGUMENT' },
      );
    const fields = (p.fields as string[] | undefined) ?? HEADLINE;
    const nodes = idList(p.nodes);
    const {
      tree,
      allocated,
      deallocated,
      changes: c,
    } = await edited(send, fields, () =>
      send('set_tree', {
        classId: p.classId,
        ascendClassId: p.ascendClassId,
        secondaryAscendClassId: p.secondaryAscendClassId ?? 0,
        nodes,
        ...(p.treeVersion ? { treeVersion: p.treeVersion } : {}),
      }),
    );
    return { tree, allocated, deallocated, changes: c, unknownNodes: nodes.filter((id) => !tree.nodes.includes(id)) };
  },
  async update_tree_delta(send, p) {
    if (p.masteryEffects && Object.keys(objectOf(p.masteryEffects)).length > 0)
      throw new ToolError(
        "masteryEffects: over the pob-api fork, pob_lua_update_tree_delta keeps the current mastery choices and takes no new ones (nor can pob_lua_set_tree set them); run mcphost's own Lua server (plugins.pob.server: mcphost) to choose masteries",
        { code: 'INVALID_ARGUMENT' },
      );
    const fields = (p.fields as string[] | undefined) ?? HEADLINE;
    const add = idList(p.addNodes);
    const remove = idList(p.removeNodes);
    const result = await edited(send, fields, () => send('update_tree_delta', { addNodes: add, removeNodes: remove }));
    const had = new Set(result.before.nodes);
    const has = new Set(result.tree.nodes);
    return {
      tree: result.tree,
      allocated: result.allocated,
      deallocated: result.deallocated,
      changes: result.changes,
      // The fork adds exactly the given ids (no path): one not adjacent to the tree, or unknown, is dropped.
      unreachable: add.filter((id) => !had.has(id) && !has.has(id)),
      unchanged: [...add.filter((id) => had.has(id)), ...remove.filter((id) => !had.has(id))],
    };
  },
  // The fork's own calc_with answers PoB's whole output table, which holds a reference cycle
  // (output.ReqStrItem.sourceGem…grantedEffect.statMap._grantedEffect) its JSON encoder cannot
  // write: the stdio server exits and the GUI server raises an error in its frame. So the what-if
  // is the edit itself, measured, then undone by restoring the exact node set from before (an
  // inverse edit is not enough: PoB drops nodes a removal disconnects, and re-adding one node does
  // not bring them back). The fork's update_tree_delta keeps the mastery choices.
  async calc_with(send, p) {
    const fields = (p.fields as string[] | undefined) ?? HEADLINE;
    const tree = treeOf((await send('get_tree')).tree);
    const had = new Set(tree.nodes);
    const add = idList(p.addNodes).filter((id) => !had.has(id));
    const remove = idList(p.removeNodes).filter((id) => had.has(id));
    const before = pick(await statsOf(send, fields), fields).values;
    let after = before;
    let changed = tree;
    if (add.length || remove.length) {
      // Edit and undo come as a pair: a cancel lands between them, never before the undo.
      changed = treeOf((await send('update_tree_delta', { addNodes: add, removeNodes: remove }, { always: true })).tree);
      try {
        after = pick(await statsOf(send, fields), fields).values;
      } finally {
        const now = new Set(changed.nodes);
        await send(
          'update_tree_delta',
          { addNodes: tree.nodes.filter((id) => !now.has(id)), removeNodes: changed.nodes.filter((id) => !had.has(id)) },
          { always: true },
        );
      }
    }
    const has = new Set(changed.nodes);
    const delta: Record<string, number> = {};
    for (const name of fields) {
      const a = after[name];
      const b = before[name];
      if (typeof a === 'number' && typeof b === 'number') delta[name] = a - b;
    }
    return {
      before,
      after,
      delta,
      nodes: {
        added: changed.nodes.filter((id) => !had.has(id)),
        // With what PoB dropped because the removal cut it off from the tree.
        removed: tree.nodes.filter((id) => !has.has(id)),
        // The fork adds exactly the given ids, no path: an id not adjacent to the tree (or unknown) is dropped.
        unreachable: add.filter((id) => !has.has(id)),
      },
      method: 'edit-and-undo',
    };
  },
  export_build_xml: async (send) => ({ xml: (await send('export_build_xml')).xml }),
  get_build_info: async (send) => objectOf((await send('get_build_info')).info),
  async set_level(send, p) {
    const fields = (p.fields as string[] | undefined) ?? HEADLINE;
    const before = pick(await statsOf(send, fields), fields).values;
    await send('set_level', { level: p.level });
    const after = pick(await statsOf(send, fields), fields).values;
    return { level: p.level, changes: changes(before, after, fields) };
  },
  get_config: async (send) => ({ input: objectOf((await send('get_config')).config) }),
  async set_config(send, p) {
    const input = objectOf(p.input);
    const beyondFork = Object.keys(input).some((k) => !FORK_CONFIG_KEYS.includes(k));
    const known = beyondFork && (await isPr9505(send)) ? PR9505_CONFIG_KEYS : FORK_CONFIG_KEYS;
    const unsupported = [
      ...Object.keys(input).filter((k) => !known.includes(k)),
      ...(Array.isArray(p.clear) ? (p.clear as string[]) : []).map((k) => `${k} (clearing)`),
    ];
    if (unsupported.length > 0)
      throw new ToolError(
        known === FORK_CONFIG_KEYS
          ? `config not changed: over the pob-api fork, pob_lua_set_config sets only ${FORK_CONFIG_KEYS.join(', ')} (the API proposed upstream in PoB PR #9505 also sets ${PR9505_CONFIG_KEYS.slice(FORK_CONFIG_KEYS.length).join(', ')}); not ${unsupported.join(', ')}`
          : `config not changed: over PoB's headless API (PR #9505), pob_lua_set_config sets only ${PR9505_CONFIG_KEYS.join(', ')}; not ${unsupported.join(', ')}`,
        { code: 'BAD_CONFIG', data: { unsupported } },
      );
    const fields = (p.fields as string[] | undefined) ?? HEADLINE;
    const before = pick(await statsOf(send, fields), fields).values;
    const { config } = await send('set_config', input);
    const after = pick(await statsOf(send, fields), fields).values;
    return { input: objectOf(config), changes: changes(before, after, fields) };
  },
};

/** Runs one action of mcphost's protocol against the fork; the caller keeps other calls out meanwhile. */
export function forkAction(send: ForkSend, action: string, params: Params): Promise<unknown> {
  const run = actions[action];
  if (!run) return Promise.reject(new ToolError(`the pob-api fork cannot serve ${action}`, { code: 'UNKNOWN_ACTION' }));
  return run(send, params);
}
