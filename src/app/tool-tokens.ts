// `mcphost tools --tokens`: what each tool, and the whole tools/list in each tool mode, costs a
// client's context, counted over the JSON the client receives.
import { pinnedOf } from '../discover/surface.js';
import { tokenCounter, tokenReport, type TokenReport } from '../discover/tokens.js';
import { listFrom, type Listing } from './listing.js';
import type { OpenHostOptions } from './open.js';

export async function toolTokens(options: OpenHostOptions & { plugin?: string }): Promise<Listing<TokenReport>> {
  const counter = await tokenCounter();
  return listFrom(options, async (r) => tokenReport(await r.tools(options.plugin), pinnedOf(r), counter));
}
