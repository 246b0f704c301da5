// AUMP between two parties over HTTP on real sockets: a seller A2A server with the AUMP server
// extension (SQLite evidence), and a buyer runtime sending through Concord's client. The runtime
// pattern (evaluate, attach only if allowed, record the messageId; nothing sent on deny or
// escalate) and the server's refusals (before the agent runs, with no evidence written).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { A2AClient, A2AClientError } from '../../../src/client/index.js';
import {
  AUMP_A2A_EXTENSION_URI as URI,
  a2aMessage,
  aumpInterceptor,
  aumpServerExtension,
  createAumpRuntime,
  validateAumpSchema,
  type AumpResponseInfo,
  type AumpRuntime,
  type MandatedSend,
} from '../../../src/extensions/aump/internal.js';
import type { Message, Task } from '../../../src/protocol/index.js';
import { createA2AServer } from '../../../src/server/index.js';
import { listen, type RunningServer } from '../../../src/server/adapters/node.js';
import { SqliteTaskStore } from '../../../src/store/sqlite/index.js';
import { SUITE_NOW, suiteMandate } from './helpers.js';

const buyerMandate = suiteMandate('marketplace-buyer.valid.json');
const sellerMandate = suiteMandate('marketplace-seller.valid.json');
const LEAK = 'A2A message must not embed full private AUMP mandate';

interface Seller {
  url: string;
  runtime: AumpRuntime;
  seen: Message[];
  store: SqliteTaskStore;
  running: RunningServer;
}

let seller: Seller;
let dir: string;
let clock: Date;

async function startSeller(options: { revoked?: string[] } = {}): Promise<Seller> {
  const store = new SqliteTaskStore({ path: join(dir, 'seller.db') });
  const runtime = createAumpRuntime({
    mandates: [sellerMandate],
    known: [buyerMandate],
    revoked: options.revoked ?? [],
    evidence: store.evidence,
    actor: { role: 'agent', id: 'seller' },
    now: () => clock,
  });
  const seen: Message[] = [];
  const server = createA2AServer({
    agentCard: {
      name: 'Seller',
      description: 'Sells under an AUMP mandate',
      version: '1.0.0',
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'sell', name: 'Sell', description: 'Negotiates a sale', tags: ['negotiation'] }],
    },
    store,
    extensions: [aumpServerExtension(runtime, { receivedEvent: 'offer_received' })],
    executor: {
      async execute(context, updater) {
        seen.push(context.message);
        const aump = context.extensions.get(URI) as AumpRuntime;
        const ref = context.message.metadata?.[URI] as { mandate_id: string } | undefined;
        const counter = {
          type: 'make_counteroffer',
          summary: `Counter ${ref?.mandate_id ?? 'a plain buyer'} at 4 USD.`,
        };
        const decision = aump.evaluate(sellerMandate.id, counter);
        await aump.record(sellerMandate.id, {
          eventType: 'counteroffer_sent',
          summary: counter.summary,
          result: decision.decision,
          action: counter,
        });
        const reply = aump.a2aMessage(sellerMandate.id, {
          role: 'agent',
          parts: [{ text: 'I can do 4 USD.' }],
          taskId: updater.taskId,
          contextId: updater.contextId,
        });
        updater.complete(reply.message);
      },
    },
  });
  const running = await listen(server, { port: 0 });
  return { url: running.url, runtime, seen, store, running };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-aump-http-'));
  clock = SUITE_NOW;
  seller = await startSeller();
});
afterEach(async () => {
  await seller.running.close();
  rmSync(dir, { recursive: true, force: true });
});

function buyer(): AumpRuntime {
  return createAumpRuntime({
    mandates: [buyerMandate],
    actor: { role: 'agent', id: 'buyer' },
    now: () => clock,
    connect: { allowedHosts: ['127.0.0.1'] },
  });
}

function offer(total = 300, extra: Partial<MandatedSend> = {}): MandatedSend {
  return {
    mandateId: buyerMandate.id,
    action: {
      type: 'make_offer',
      summary: `Offer ${total / 100} USD for 19 ping pong balls.`,
      counterparty: 'seller_123',
      amount: { currency: 'USD', total_minor: total },
      downstream_refs: [{ protocol: 'marketplace', id: 'listing_ping_pong_001' }],
    },
    message: { messageId: `msg_offer_${total}`, parts: [{ text: `I can offer ${total / 100} USD.` }] },
    evidence: { sent: 'offer_sent', denied: 'deal_denied', escalated: 'escalation_requested' },
    ...extra,
  };
}

async function sellerEvidence(): Promise<number> {
  return (await seller.runtime.evidence.read(sellerMandate.id)).length;
}

describe('the runtime pattern, client side', () => {
  it('evaluates, attaches the reference, sends, and records the messageId on both sides', async () => {
    const runtime = buyer();
    const result = await runtime.send(seller.url, offer());
    expect(result.sent).toBe(true);
    if (!result.sent) return;
    expect(result.activated).toBe(true);
    expect(result.evaluation.decision).toBe('allowed');
    const task = (result.response as { task: Task }).task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    // The seller's reply carries the seller's own reference, never its mandate.
    expect(task.status.message?.metadata?.[URI]).toMatchObject({ mandate_id: sellerMandate.id });
    expect(JSON.stringify(task)).not.toContain('reservation_price_minor');
    // What the seller received: the reference only, and the extension listed.
    expect(seller.seen).toHaveLength(1);
    expect(seller.seen[0]).toMatchObject({ messageId: 'msg_offer_300', extensions: [URI] });
    expect(JSON.stringify(seller.seen[0])).not.toContain('private_notes');
    // Buyer evidence: offer_sent with the A2A messageId and the seller's task.
    const [sent] = await runtime.evidence.read(buyerMandate.id);
    expect(sent).toMatchObject({
      sequence: 1,
      event_type: 'offer_sent',
      result: 'allowed',
      downstream_refs: [
        { protocol: 'marketplace', id: 'listing_ping_pong_001' },
        { protocol: 'a2a', id: 'msg_offer_300' },
      ],
      metadata: { a2a_message_id: 'msg_offer_300', a2a_task_id: task.id, a2a_extension_activated: true },
    });
    // Seller evidence: offer_received (before the agent ran) then the agent's counteroffer_sent.
    const chain = await seller.runtime.evidence.read(sellerMandate.id);
    expect(chain.map((e) => [e.sequence, e.event_type, e.result])).toEqual([
      [1, 'offer_received', 'received'],
      [2, 'counteroffer_sent', 'allowed'],
    ]);
    expect(chain[0]).toMatchObject({
      actor: { role: 'agent', id: 'seller' },
      downstream_refs: [
        { protocol: 'a2a', id: 'msg_offer_300' },
        { protocol: 'aump', id: buyerMandate.id },
      ],
      metadata: {
        a2a_message_id: 'msg_offer_300',
        a2a_task_id: task.id,
        counterparty_mandate_id: buyerMandate.id,
      },
    });
    expect(await seller.runtime.verify(sellerMandate.id)).toMatchObject({ valid: true, count: 2 });
  });

  it('sends nothing on deny, and hands back the decision (recorded as deal_denied)', async () => {
    const runtime = buyer();
    const result = await runtime.send(seller.url, offer(700));
    expect(result).toMatchObject({
      sent: false,
      evaluation: { decision: 'denied', reason_codes: ['hard_constraint_violation', 'price_above_budget'] },
      evidence: {
        event_type: 'deal_denied',
        result: 'denied',
        reason_codes: ['hard_constraint_violation', 'price_above_budget'],
      },
    });
    expect(seller.seen).toHaveLength(0);
    expect(await sellerEvidence()).toBe(0);
  });

  it('sends nothing when the action needs escalation', async () => {
    const result = await buyer().send(seller.url, offer(300, { context: { confidence: 0.2 } }));
    expect(result).toMatchObject({
      sent: false,
      evaluation: {
        decision: 'requires_escalation',
        reason_codes: ['escalation_required', 'confidence_below_threshold'],
      },
      evidence: { event_type: 'escalation_requested' },
    });
    expect(seller.seen).toHaveLength(0);
  });

  it('sends nothing under a revoked or expired mandate', async () => {
    const runtime = buyer();
    runtime.revoke(buyerMandate.id);
    expect(await runtime.send(seller.url, offer())).toMatchObject({
      sent: false,
      evaluation: { reason_codes: ['mandate_revoked'] },
    });
    clock = new Date('2026-04-26T15:00:00Z');
    expect(await buyer().send(seller.url, offer())).toMatchObject({
      sent: false,
      evaluation: { reason_codes: ['mandate_expired'] },
    });
    expect(seller.seen).toHaveLength(0);
  });

  it("works with the caller's own client carrying aumpInterceptor, on 0.3 as on 1.0", async () => {
    for (const version of ['0.3', '1.0'] as const) {
      const heard: AumpResponseInfo[] = [];
      const client = await A2AClient.connect(seller.url, {
        allowedHosts: ['127.0.0.1'],
        prefer: { versions: [version] },
        interceptors: [aumpInterceptor({ onResponse: (info) => heard.push(info) })],
      });
      const result = await buyer().send(
        client,
        offer(300, { message: { messageId: `msg_${version}`, parts: [{ text: 'hi' }] } }),
      );
      client.close();
      expect(result.sent, version).toBe(true);
      expect(heard, version).toEqual([{ messageId: `msg_${version}`, activated: true, status: 200 }]);
    }
  });

  it('refuses locally to send parts that embed the mandate', async () => {
    const leaking = offer(300, {
      message: { parts: [{ text: 'see attached' }, { data: { mine: buyerMandate } }] },
    });
    await expect(buyer().send(seller.url, leaking)).rejects.toThrow(LEAK);
    expect(seller.seen).toHaveLength(0);
  });
});

describe('the server side', () => {
  async function post(message: unknown, headers: Record<string, string> = { 'a2a-extensions': URI }) {
    const response = await fetch(seller.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'SendMessage', params: { message } }),
    });
    return {
      response,
      body: (await response.json()) as {
        result?: unknown;
        error?: { code: number; message: string; data?: unknown };
      },
    };
  }

  function mandated(messageId = 'msg_1'): Message {
    return a2aMessage(buyerMandate, { messageId, parts: [{ text: 'I can offer 3 USD.' }] }).message;
  }

  async function expectRefused(
    message: unknown,
    text: string,
    headers?: Record<string, string>,
  ): Promise<void> {
    const before = await sellerEvidence();
    const { body } = await post(message, headers);
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toContain(text);
    expect(seller.seen).toHaveLength(0);
    expect(await sellerEvidence()).toBe(before);
    expect((await seller.store.list({ tenant: '', owner: '', pageSize: 5 })).totalSize).toBe(0);
  }

  it('accepts a valid mandated message and echoes the activation', async () => {
    const { response, body } = await post(mandated());
    expect(body.result).toBeDefined();
    expect(response.headers.get('a2a-extensions')).toBe(URI);
    expect(seller.seen).toHaveLength(1);
  });

  it('rejects a tampered hash before the agent runs, writing no evidence', async () => {
    const message = mandated();
    (message.metadata![URI] as { mandate_hash: string }).mandate_hash = `sha256-${'0'.repeat(64)}`;
    await expectRefused(message, 'AUMP: A2A mandate hash mismatch');
  });

  it('rejects the full mandate in every position', async () => {
    const positions: ((m: Message) => void)[] = [
      (m) => ((m.metadata![URI] as Record<string, unknown>).mandate = buyerMandate),
      (m) => (m.metadata!.attached = { deep: [buyerMandate] }),
      (m) => (m.parts[0]!.metadata = { mandate_copy: buyerMandate }),
      (m) => m.parts.push({ data: buyerMandate }),
      (m) => m.parts.push({ data: { nested: { again: { m: buyerMandate } } } }),
      (m) => m.parts.push({ text: JSON.stringify(buyerMandate) }),
    ];
    for (const put of positions) {
      const message = mandated();
      put(message);
      await expectRefused(message, LEAK);
    }
    // A message that carries no AUMP reference may not smuggle a mandate either.
    await expectRefused({ messageId: 'plain', role: 'ROLE_USER', parts: [{ data: buyerMandate }] }, LEAK, {});
  });

  it('rejects a mandated message whose request did not activate the extension', async () => {
    await expectRefused(mandated(), 'missing A2A-Extensions activation for AUMP', {});
    const { body } = await post(mandated(), {});
    expect(JSON.stringify(body.error)).toContain('A2A-Extensions');
  });

  it('rejects references to expired and revoked mandates', async () => {
    clock = new Date('2026-04-27T00:00:00Z');
    await expectRefused(mandated(), 'A2A mandate aump_mnd_market_buyer_001 expired at 2026-04-26T15:00:00Z');
    clock = SUITE_NOW;
    await seller.running.close();
    seller = await startSeller({ revoked: [buyerMandate.id] });
    await expectRefused(mandated(), 'A2A mandate aump_mnd_market_buyer_001 is revoked');
  });

  it('lets plain messages through unchanged and records nothing for them', async () => {
    const { body } = await post(
      { messageId: 'plain', role: 'ROLE_USER', parts: [{ text: 'is it still available?' }] },
      {},
    );
    expect(body.result).toBeDefined();
    expect(seller.seen).toHaveLength(1);
    expect((await seller.runtime.evidence.read(sellerMandate.id)).map((e) => e.event_type)).toEqual([
      'counteroffer_sent',
    ]);
  });

  it('answers the 0.3 JSON-RPC binding with the same refusal, through the client', async () => {
    const client = await A2AClient.connect(seller.url, {
      allowedHosts: ['127.0.0.1'],
      prefer: { versions: ['0.3'], bindings: ['HTTP+JSON'] },
      extensions: [URI],
    });
    const message = mandated();
    (message.metadata![URI] as { mandate_hash: string }).mandate_hash = `sha256-${'1'.repeat(64)}`;
    const error = (await client.sendMessage({ message }).catch((e: unknown) => e)) as A2AClientError;
    client.close();
    expect(error).toBeInstanceOf(A2AClientError);
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain('A2A mandate hash mismatch');
    expect(seller.seen).toHaveLength(0);
  });

  it('declares AUMP on the card and serves the profile at /.well-known/aump', async () => {
    const card = (await (await fetch(`${seller.url}.well-known/agent-card.json`)).json()) as {
      capabilities: { extensions: unknown[] };
    };
    expect(card.capabilities.extensions).toEqual([
      {
        uri: URI,
        description: 'Supports AUMP mandate references and action evaluation.',
        required: false,
        params: { versions: ['0.1.0'] },
      },
    ]);
    const response = await fetch(`${seller.url}.well-known/aump`);
    expect(response.status).toBe(200);
    const profile = await response.json();
    expect(validateAumpSchema('profile', profile)).toEqual([]);
    expect(profile).toMatchObject({
      issuer: { id: seller.url.replace(/\/$/, ''), name: 'Seller' },
      supported_versions: ['0.1.0'],
      bindings: { a2a: { supported: true, endpoint: `${seller.url}.well-known/agent-card.json` } },
    });
    expect((await fetch(`${seller.url}.well-known/aump`, { method: 'POST' })).status).toBe(404);
  });
});
