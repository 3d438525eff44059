// Which of stock ImHex's data sources a client works on. Apart from the client (stock-client.ts) so
// that the tool list can name it without loading the MCP client: a local-file call never needs it.
import type { ClientInfo } from '../../../src/backend/index.js';

/** The data source one client chose (open_file, select_data_source); none: it works on the user's. */
export interface ClientSource {
  handle?: number;
}

/** The client's choice, kept for as long as the client is connected (a one-shot call has its own). */
export const clientSource = (client: ClientInfo | undefined): ClientSource =>
  client ? client.state<ClientSource>('imhex/stock-source', () => ({})) : {};
