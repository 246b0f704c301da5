/**
 * The evidence owner API (`/agents/<id>/evidence`, decisions 0057, 0159) through real HTTP:
 * `concord serve examples/aump-negotiation` with an internal listener, one negotiation driven
 * through the buyer, then the chains found by task, context and mandate, each verified; the
 * filter refused when missing or doubled; the public listener of a host without security and an
 * agent without AUMP answering 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyListing } from '../helpers/aump-deal.js';
import { serve, type Served } from '../cli/serve-helpers.js';

const SELLER_MANDATE = 'aump_mnd_demo_seller_001';
const BUYER_MANDATE = 'aump_mnd_demo_buyer_001';

interface ChainView {
  mandateId: string;
  events: {
    sequence: number;
    event_type: string;
    metadata?: Record<string, unknown>;
    hashes?: Record<string, string>;
  }[];
  verification: { valid: boolean; problems: string[]; headHash?: string };
}

let host: Served;
let internal: string;

/** The internal listener's base URL from the start-up lines. */
function internalUrl(served: Served): string {
  return /internal listener: (http:\/\/[^\s"\\]+\/)/.exec(served.stdout())![1]!;
}

async function startWithInternal(target: string): Promise<Served> {
  const served = await serve([target, '--port', '0', '--internal-port', '0', '--store', 'memory']);
  for (let i = 0; i < 100 && !/internal listener: http/.test(served.stdout()); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return served;
}

async function evidence(base: string, agent: string, query: string) {
  const response = await fetch(`${base}agents/${agent}/evidence${query}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  host = await startWithInternal('examples/aump-negotiation');
  internal = internalUrl(host);
}, 30_000);

afterAll(async () => {
  await host?.stop();
});

describe('the evidence API', () => {
  let sellerTask: string;
  let sellerContext: string;

  beforeAll(async () => {
    const task = await buyListing(host.url);
    expect(task?.status.state).toBe('TASK_STATE_COMPLETED');
    // The seller's own chain names the seller's task and context of the offer it received.
    const seller = await evidence(internal, 'seller', `?mandateId=${SELLER_MANDATE}`);
    const received = (seller.body.chains as ChainView[])[0]!.events.find(
      (e) => e.event_type === 'offer_received',
    )!;
    sellerTask = String(received.metadata!.a2a_task_id);
    sellerContext = String(received.metadata!.a2a_context_id);
  }, 30_000);

  it('answers a mandate chain whole, verified, with its head hash', async () => {
    const { status, body } = await evidence(internal, 'seller', `?mandateId=${SELLER_MANDATE}`);
    expect(status).toBe(200);
    const chains = body.chains as ChainView[];
    expect(chains.map((c) => c.mandateId)).toEqual([SELLER_MANDATE]);
    const { events, verification } = chains[0]!;
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, index) => index + 1));
    expect(verification).toEqual({
      valid: true,
      problems: [],
      headHash: events.at(-1)!.hashes!.event_hash,
    });
  });

  it('finds the chains that mention a task or a context', async () => {
    const byTask = await evidence(internal, 'seller', `?taskId=${encodeURIComponent(sellerTask)}`);
    expect(byTask.status).toBe(200);
    expect((byTask.body.chains as ChainView[]).map((c) => c.mandateId)).toEqual([SELLER_MANDATE]);
    const byContext = await evidence(internal, 'seller', `?contextId=${encodeURIComponent(sellerContext)}`);
    expect((byContext.body.chains as ChainView[]).map((c) => c.mandateId)).toEqual([SELLER_MANDATE]);
    // The buyer recorded its offer with the task the seller answered with.
    const buyer = await evidence(internal, 'buyer', `?taskId=${encodeURIComponent(sellerTask)}`);
    const chains = buyer.body.chains as ChainView[];
    expect(chains.map((c) => c.mandateId)).toEqual([BUYER_MANDATE]);
    expect(chains[0]!.verification.valid).toBe(true);
    const unknown = await evidence(internal, 'seller', '?taskId=no-such-task');
    expect(unknown).toEqual({ status: 200, body: { chains: [] } });
  });

  it('requires exactly one filter', async () => {
    const none = await evidence(internal, 'seller', '');
    expect(none.status).toBe(400);
    const error = none.body.error as {
      message: string;
      details: { fieldViolations?: { field: string }[] }[];
    };
    expect(error.message).toBe('one of taskId, contextId or mandateId is required');
    expect(JSON.stringify(error.details)).toContain('taskId');
    const two = await evidence(internal, 'seller', '?taskId=a&contextId=b');
    expect(two.status).toBe(400);
    expect((two.body.error as { message: string }).message).toContain('not taskId and contextId');
    const empty = await evidence(internal, 'seller', '?taskId=');
    expect(empty.status).toBe(400);
  });

  it('is not served on the public listener of a host without security', async () => {
    const { status, body } = await evidence(host.url, 'seller', `?mandateId=${SELLER_MANDATE}`);
    expect(status).toBe(404);
    expect((body.error as { message: string }).message).toContain('internal listener');
  });
});

describe('an agent without AUMP', () => {
  let plain: Served;
  beforeAll(async () => {
    plain = await startWithInternal('examples/pipeline');
  }, 30_000);
  afterAll(async () => {
    await plain?.stop();
  });

  it('has no evidence to show: 404 naming it', async () => {
    const { status, body } = await evidence(internalUrl(plain), 'researcher', '?taskId=t1');
    expect(status).toBe(404);
    expect((body.error as { message: string }).message).toContain('"researcher" keeps no AUMP evidence');
  });
});
