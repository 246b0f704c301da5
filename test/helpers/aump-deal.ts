/**
 * One deal of examples/aump-negotiation, driven as its README does: the buyer, asked over
 * JSON-RPC 1.0, negotiates with the seller under its mandate, so both record AUMP evidence.
 */
import type { Task } from '../../src/protocol/index.js';

/** Asks the buyer of the host at `hostUrl` to buy the example listing; the buyer's task, if any. */
export async function buyListing(hostUrl: string): Promise<Task | undefined> {
  const response = await fetch(`${hostUrl}agents/buyer/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: crypto.randomUUID(),
          role: 'ROLE_USER',
          parts: [{ data: { listing: 'listing_ping_pong_001', seller: `${hostUrl}agents/seller/` } }],
        },
      },
    }),
  });
  return ((await response.json()) as { result?: { task?: Task } }).result?.task;
}
