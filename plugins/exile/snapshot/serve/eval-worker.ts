// One evaluation thread of the snapshot pool (pool.ts): loads the snapshot itself, then answers one
// call at a time. A call's cancel flag is shared memory the main thread sets on cancel or timeout,
// read by the call's budget while it iterates, so an evaluation stops without the main thread
// ever waiting on it.
import { toolErrorCode } from '../../../../src/backend/index.js';
import { workerSide } from '../../../../src/kit/index.js';
import type { ExileProvider, ProviderCallContext } from '../../provider.js';
import type { HudCall } from '../../remote.js';
import { loadSnapshot } from './load.js';
import { createSnapshotProvider } from './provider.js';
import type { EvalWorkerData, PoolReply, PoolRequest } from './pool-protocol.js';

const port = workerSide<EvalWorkerData, PoolRequest, PoolReply>();
const { file, timeBudgetMs } = port.data;

function errorReply(id: number, error: unknown): PoolReply {
  const e = error as { message?: string; code?: unknown; data?: unknown; name?: string };
  return { id, error: { message: e?.message ?? String(error), code: toolErrorCode(e?.code), data: e?.data, name: e?.name } };
}

let provider: ExileProvider;
try {
  provider = createSnapshotProvider(await loadSnapshot(file), { timeBudgetMs });
  port.post({ id: 0, ok: 'ready' });
} catch (error) {
  port.post(errorReply(0, error));
  process.exit(0);
}

port.onMessage((request) => {
  const flag = new Int32Array(request.cancel);
  const cancelled = () => Atomics.load(flag, 0) !== 0;
  answer(request, { signal: new AbortController().signal, cancelled }).then(
    (value) => port.post({ id: request.id, ok: value }),
    (error: unknown) => port.post(errorReply(request.id, error)),
  );
});

function answer(call: HudCall, ctx: ProviderCallContext): Promise<unknown> {
  switch (call.tool) {
    case 'explore':
      return provider.explore(call.args, ctx);
    case 'eval':
      return provider.eval(call.args, ctx);
    case 'query':
      return provider.query(call.args, ctx);
  }
}
