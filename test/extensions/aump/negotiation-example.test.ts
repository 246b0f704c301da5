// examples/aump-negotiation end to end, as a user runs it: `concord serve` as a child process on a
// real socket, the buyer negotiating with the seller over A2A HTTP under their mandates, an
// attacker's tampered and leaking messages refused by the seller, then `concord aump evidence`
// printing and verifying both chains from the SQLite stores, and finding a deleted event.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUMP_A2A_EXTENSION_URI as URI,
  a2aMessage,
  loadMandateFile,
  validateAumpSchema,
  type Mandate,
} from '../../../src/extensions/aump/internal.js';
import type { Task } from '../../../src/protocol/index.js';
import { concord, ROOT, startConcord, type LiveCli } from '../../cli/cli-process.js';

const EXAMPLE = join(ROOT, 'examples/aump-negotiation');
const BUYER = 'aump_mnd_demo_buyer_001';
const SELLER = 'aump_mnd_demo_seller_001';
let dataDir: string;
let host: LiveCli;
let url: string;
let buyerMandate: Mandate;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'concord-aump-example-'));
  buyerMandate = await loadMandateFile(join(EXAMPLE, 'mandates/buyer.json'));
  host = startConcord(['serve', EXAMPLE, '--port', '0', '--data-dir', dataDir]);
  const ready = await host.until((out) => out.includes('listing:'));
  url = /hosting 2 agent\(s\) at (http:\/\/\S+\/)/.exec(ready)![1]!;
});

afterAll(async () => {
  if (host !== undefined && host.child.exitCode === null) {
    host.child.kill('SIGTERM');
    await host.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function rpc(agent: string, message: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}agents/${agent}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message } }),
  });
  return (await response.json()) as { result?: { task?: Task }; error?: { code: number; message: string } };
}

async function ask(data: Record<string, unknown>): Promise<Task> {
  const body = await rpc('buyer', {
    messageId: `user-${Math.random().toString(36).slice(2)}`,
    role: 'ROLE_USER',
    parts: [{ data: { seller: `${url}agents/seller/`, ...data } }],
  });
  expect(body.error).toBeUndefined();
  return body.result!.task!;
}

function dataPart(task: Task): Record<string, unknown> | undefined {
  const parts = [...(task.artifacts ?? []).flatMap((a) => a.parts), ...(task.status.message?.parts ?? [])];
  return parts.find((p) => p.data !== undefined)?.data as Record<string, unknown> | undefined;
}

describe('examples/aump-negotiation', () => {
  it('serves both agents with the AUMP declaration and profile', async () => {
    for (const agent of ['buyer', 'seller']) {
      const card = (await (await fetch(`${url}agents/${agent}/.well-known/agent-card.json`)).json()) as {
        capabilities: { extensions?: { uri: string }[] };
      };
      expect(
        card.capabilities.extensions?.map((e) => e.uri),
        agent,
      ).toEqual([URI]);
      const profile = await (await fetch(`${url}agents/${agent}/.well-known/aump`)).json();
      expect(validateAumpSchema('profile', profile), agent).toEqual([]);
    }
  });

  it('closes a deal at the listed price', async () => {
    const task = await ask({ listing: 'listing_ping_pong_001' });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(dataPart(task)).toMatchObject({
      listing_id: 'listing_ping_pong_001',
      price: { currency: 'USD', total_minor: 300 },
    });
  });

  it('takes a counteroffer and closes in the second round', async () => {
    const task = await ask({ listing: 'listing_ping_pong_001', offer_minor: 200 });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(dataPart(task)).toMatchObject({ price: { total_minor: 300 } });
  });

  it('sends nothing over budget (denied) or under low confidence (escalated)', async () => {
    const denied = await ask({ listing: 'listing_orbs_007' });
    expect(denied.status.state).toBe('TASK_STATE_REJECTED');
    expect(dataPart(denied)).toMatchObject({
      decision: { decision: 'denied', reason_codes: ['hard_constraint_violation', 'price_above_budget'] },
    });
    const review = await ask({ listing: 'listing_ping_pong_001', confidence: 0.2 });
    expect(review.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(dataPart(review)).toMatchObject({ decision: { decision: 'requires_escalation' } });
  });

  it('has the seller refuse a tampered hash and a leaked mandate, and a message without activation', async () => {
    const tampered = a2aMessage(buyerMandate, {
      messageId: 'evil-1',
      parts: [{ data: { listing_id: 'listing_ping_pong_001', offer: { currency: 'USD', total_minor: 1 } } }],
    });
    (tampered.message.metadata![URI] as { mandate_hash: string }).mandate_hash = `sha256-${'f'.repeat(64)}`;
    const hash = await rpc('seller', tampered.message, tampered.headers);
    expect(hash.error).toMatchObject({ code: -32602, message: 'AUMP: A2A mandate hash mismatch' });

    const leaking = a2aMessage(buyerMandate, {
      messageId: 'evil-2',
      parts: [{ text: 'my mandate, for reference' }],
    });
    (leaking.message.metadata![URI] as Record<string, unknown>).mandate = buyerMandate;
    const leak = await rpc('seller', leaking.message, leaking.headers);
    expect(leak.error).toMatchObject({
      code: -32602,
      message: 'AUMP: A2A message must not embed full private AUMP mandate',
    });

    const quiet = a2aMessage(buyerMandate, { messageId: 'evil-3', parts: [{ text: 'hi' }] });
    const inactive = await rpc('seller', quiet.message);
    expect(inactive.error?.message).toContain('missing A2A-Extensions activation for AUMP');
  });

  it('prints and verifies both evidence chains with the CLI, and finds a deleted event', async () => {
    host.child.kill('SIGTERM');
    expect((await host.exited).code).toBe(0);

    const buyer = await concord([
      'aump',
      'evidence',
      BUYER,
      '--data-dir',
      dataDir,
      '--mandate',
      join(EXAMPLE, 'mandates/buyer.json'),
    ]);
    expect(buyer.stderr).toBe('');
    expect(buyer.code).toBe(0);
    const types = [...buyer.stdout.matchAll(/^ {2}#\d+ \S+ (\S+) (\S+)/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(types).toEqual([
      'offer_sent allowed',
      'deal_accepted allowed',
      'offer_sent allowed',
      'counteroffer_received received',
      'offer_sent allowed',
      'deal_accepted allowed',
      'deal_denied denied',
      'escalation_requested requires_escalation',
    ]);
    expect(buyer.stdout).toMatch(/a2a:msg_[0-9a-f-]{36}/);
    expect(buyer.stdout).toMatch(
      /verified: 8 event\(s\), numbered and hash-linked; head sha256-[0-9a-f]{64}/,
    );
    expect(buyer.stdout).not.toContain('Do not mention');

    const seller = await concord([
      'aump',
      'evidence',
      SELLER,
      '--data-dir',
      dataDir,
      '--agent',
      'seller',
      '--json',
    ]);
    expect(seller.code).toBe(0);
    const record = JSON.parse(seller.stdout.trim()) as {
      events: { event_type: string; metadata?: Record<string, unknown> }[];
      verification: { valid: boolean };
    };
    expect(record.verification.valid).toBe(true);
    // Only the buyer's genuine offers reached the seller; the attacker's left no trace.
    expect(record.events.map((e) => e.event_type)).toEqual([
      'offer_received',
      'deal_accepted',
      'offer_received',
      'counteroffer_sent',
      'offer_received',
      'deal_accepted',
    ]);
    expect(record.events[0]!.metadata).toMatchObject({ counterparty_mandate_id: BUYER });
    expect(JSON.stringify(record)).not.toContain('evil-');

    const db = new Database(join(dataDir, 'buyer.db'));
    db.prepare('DELETE FROM evidence_records WHERE chain = ? AND seq = 3').run(BUYER);
    db.close();
    const broken = await concord(['aump', 'evidence', BUYER, '--data-dir', dataDir]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('BROKEN');
    expect(broken.stdout).toContain('sequence_gap');
    expect(broken.stdout).toContain('chain_broken');

    const none = await concord(['aump', 'evidence', 'aump_mnd_nobody', '--data-dir', dataDir]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no evidence for aump_mnd_nobody');
    expect((await concord(['aump', 'evidence'])).code).toBe(2);
  });
});
