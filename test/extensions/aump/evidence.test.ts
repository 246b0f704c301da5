// Evidence events and their chain: numbered, hash-linked, valid against the suite's schema and its
// semantic rules, persisted in SQLite; a deleted, altered or re-hashed event is found; retention
// and private-field rules are enforced before anything is written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EvidenceLog,
  EvidencePolicyError,
  eventHash,
  mandateHash,
  validateAumpSchema,
  validateEvidenceEvent,
  verifyEvidenceChain,
  type EvidenceEvent,
  type EvidenceInput,
  type Mandate,
} from '../../../src/extensions/aump/internal.js';
import { createMemoryEvidenceStore } from '../../../src/store/index.js';
import { SqliteTaskStore } from '../../../src/store/sqlite/index.js';
import { SUITE_NOW, suiteMandate } from './helpers.js';

const buyer = suiteMandate('marketplace-buyer.valid.json');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-aump-evidence-'));
  dirs.push(dir);
  return join(dir, 'buyer.db');
}

let tick = 0;
const clock = (): Date => new Date(SUITE_NOW.getTime() + 1000 * tick++);

const offerSent: EvidenceInput = {
  eventType: 'offer_sent',
  summary: 'Offered 3 USD for 19 ping pong balls.',
  result: 'allowed',
  action: { type: 'make_offer', summary: 'Offer 3 USD.', amount: { currency: 'USD', total_minor: 300 } },
  downstreamRefs: [{ protocol: 'a2a', id: 'msg_offer_001', hash: `sha256-${'a'.repeat(64)}` }],
  metadata: { a2a_message_id: 'msg_offer_001', listing_id: 'listing_ping_pong_001' },
  transcript: { parts: [{ text: 'I can offer 3 USD.' }] },
};

async function threeEvents(log: EvidenceLog): Promise<EvidenceEvent[]> {
  const events: EvidenceEvent[] = [];
  events.push((await log.record(buyer, offerSent))!);
  events.push(
    (await log.record(buyer, {
      eventType: 'counteroffer_received',
      summary: 'Seller asked 4 USD.',
      result: 'received',
    }))!,
  );
  events.push(
    (await log.record(buyer, {
      eventType: 'deal_accepted',
      summary: 'Accepted at 3 USD.',
      result: 'allowed',
      reasonCodes: [],
    }))!,
  );
  return events;
}

describe('recording evidence', () => {
  it('numbers and hash-links events that pass the suite schema and its semantic check', async () => {
    const log = new EvidenceLog(createMemoryEvidenceStore(), {
      now: clock,
      actor: { role: 'agent', id: 'buyer' },
    });
    const [first, second, third] = await threeEvents(log);
    for (const event of [first!, second!, third!]) {
      expect(validateAumpSchema('evidence-event', event)).toEqual([]);
      expect(validateEvidenceEvent(buyer, event, { now: SUITE_NOW })).toEqual({
        valid: true,
        reason_codes: [],
        paths: [],
      });
      expect(event.hashes!.event_hash).toBe(eventHash(event));
      expect(event.id).toMatch(/^aump_ev_[0-9a-f]{32}$/);
    }
    expect([first!.sequence, second!.sequence, third!.sequence]).toEqual([1, 2, 3]);
    expect(first!.hashes!.previous_event_hash).toBeUndefined();
    expect(second!.hashes!.previous_event_hash).toBe(first!.hashes!.event_hash);
    expect(third!.hashes!.previous_event_hash).toBe(second!.hashes!.event_hash);
    expect(first).toMatchObject({
      mandate_ref: { id: buyer.id, hash: mandateHash(buyer), version: '0.1.0' },
      actor: { role: 'agent', id: 'buyer' },
      // The buyer keeps "hashes": content as hashes only.
      privacy: { retention: 'hashes', contains_private_fields: false, redaction: 'hash' },
      action: { type: 'make_offer', summary: 'Offer 3 USD.', hash: expect.stringMatching(/^sha256-/) },
      downstream_refs: [{ protocol: 'a2a', id: 'msg_offer_001', hash: `sha256-${'a'.repeat(64)}` }],
      metadata: { a2a_message_id: 'msg_offer_001', listing_id: 'listing_ping_pong_001' },
      hashes: { transcript_hash: expect.stringMatching(/^sha256-/) },
    });
    expect(JSON.stringify(first)).not.toContain('I can offer');
    expect(await log.verify(buyer)).toEqual({
      valid: true,
      count: 3,
      head: third!.hashes!.event_hash,
      problems: [],
    });
  });

  it('under summary_only keeps no content hashes; under none stores nothing', async () => {
    const summaryOnly: Mandate = { ...buyer, evidence: { ...buyer.evidence, retention: 'summary_only' } };
    const log = new EvidenceLog(createMemoryEvidenceStore(), { now: clock });
    const event = (await log.record(summaryOnly, offerSent))!;
    expect(event.privacy).toEqual({
      retention: 'summary_only',
      contains_private_fields: false,
      redaction: 'summary',
    });
    expect(event.action).toEqual({ type: 'make_offer', summary: 'Offer 3 USD.' });
    expect(event.downstream_refs).toEqual([{ protocol: 'a2a', id: 'msg_offer_001' }]);
    expect(event.hashes).toEqual({ event_hash: eventHash(event) });
    const none: Mandate = { ...buyer, evidence: { ...buyer.evidence, retention: 'none' } };
    expect(await log.record(none, offerSent)).toBeUndefined();
    expect(await log.read(buyer.id)).toHaveLength(1);
  });

  it('refuses, before writing, events the policy forbids', async () => {
    const store = createMemoryEvidenceStore();
    const log = new EvidenceLog(store, { now: clock });
    const refused = async (mandate: Mandate, input: EvidenceInput): Promise<EvidencePolicyError> =>
      (await log.record(mandate, input).catch((e: unknown) => e)) as EvidencePolicyError;
    const notRequired = await refused(buyer, { ...offerSent, eventType: 'gossip' });
    expect(notRequired).toBeInstanceOf(EvidencePolicyError);
    expect(notRequired.code).toBe('evidence_event_type_not_required');
    expect(notRequired.message).toContain('offer_sent, counteroffer_received');
    expect(
      (
        await refused(buyer, {
          ...offerSent,
          containsPrivateFields: true,
          protectedFields: ['negotiation.reservation_price_minor'],
        })
      ).code,
    ).toBe('evidence_private_field_leak');
    // A private note of the mandate in the event's text is a leak too.
    expect(
      (await refused(buyer, { ...offerSent, summary: 'Note: Do not mention that 5 USD is the full budget.' }))
        .code,
    ).toBe('evidence_private_field_leak');
    expect(
      (
        await refused(buyer, {
          ...offerSent,
          metadata: { note: 'Do not mention that 5 USD is the full budget.' },
        })
      ).code,
    ).toBe('evidence_private_field_leak');
    expect(await store.chains()).toEqual([]);
    // Full transcripts with private fields, when the mandate allows both.
    const full: Mandate = {
      ...buyer,
      evidence: { ...buyer.evidence, retention: 'full_transcript', store_private_fields: true },
    };
    const kept = (await log.record(full, {
      ...offerSent,
      containsPrivateFields: true,
      protectedFields: ['negotiation.reservation_price_minor'],
    }))!;
    expect(kept.privacy).toEqual({
      retention: 'full_transcript',
      contains_private_fields: true,
      redaction: 'none',
      protected_fields: ['negotiation.reservation_price_minor'],
    });
  });

  it('flags a retention mismatch and a hash mismatch in the semantic check', async () => {
    const log = new EvidenceLog(createMemoryEvidenceStore(), { now: clock });
    const event = (await log.record(buyer, offerSent))!;
    expect(
      validateEvidenceEvent(
        buyer,
        { ...event, privacy: { ...event.privacy, retention: 'full_transcript' } },
        { now: SUITE_NOW },
      ),
    ).toEqual({
      valid: false,
      reason_codes: ['evidence_retention_mismatch'],
      paths: ['$.privacy.retention'],
    });
    const edited: Mandate = { ...buyer, status: 'suspended' };
    expect(validateEvidenceEvent(edited, event, { now: SUITE_NOW }).reason_codes).toEqual([
      'mandate_inactive',
      'evidence_mandate_hash_mismatch',
    ]);
    expect(
      validateEvidenceEvent(edited, event, { now: SUITE_NOW, mandateState: false }).reason_codes,
    ).toEqual(['evidence_mandate_hash_mismatch']);
  });
});

describe('verifying a chain kept in SQLite', () => {
  async function recorded(): Promise<{ path: string; events: EvidenceEvent[] }> {
    const path = tempDb();
    const store = new SqliteTaskStore({ path });
    const events = await threeEvents(new EvidenceLog(store.evidence, { now: clock }));
    await store.close();
    return { path, events };
  }

  async function verifyFile(path: string) {
    const store = new SqliteTaskStore({ path });
    try {
      return await new EvidenceLog(store.evidence).verify(buyer);
    } finally {
      await store.close();
    }
  }

  function tamper(path: string, sql: string, ...params: unknown[]): void {
    const db = new Database(path);
    db.prepare(sql).run(...params);
    db.close();
  }

  it('verifies an intact chain after reopening the file', async () => {
    const { path, events } = await recorded();
    expect(await verifyFile(path)).toEqual({
      valid: true,
      count: 3,
      head: events[2]!.hashes!.event_hash,
      problems: [],
    });
  });

  it('detects a deleted event', async () => {
    const { path } = await recorded();
    tamper(path, 'DELETE FROM evidence_records WHERE chain = ? AND seq = 2', buyer.id);
    const result = await verifyFile(path);
    expect(result.valid).toBe(false);
    expect(result.problems.map((p) => p.code)).toEqual(['sequence_gap', 'chain_broken']);
    expect(result.problems[0]!.message).toContain('1 event(s) before it are missing');
  });

  it('detects a deleted first event', async () => {
    const { path } = await recorded();
    tamper(path, 'DELETE FROM evidence_records WHERE chain = ? AND seq = 1', buyer.id);
    expect((await verifyFile(path)).problems.map((p) => p.code)).toEqual(['sequence_gap', 'sequence_gap']);
  });

  it('detects an altered event', async () => {
    const { path, events } = await recorded();
    const altered = { ...events[0]!, summary: 'Offered 2 USD for 19 ping pong balls.' };
    tamper(
      path,
      'UPDATE evidence_records SET event = ? WHERE chain = ? AND seq = 1',
      JSON.stringify(altered),
      buyer.id,
    );
    const result = await verifyFile(path);
    expect(result.problems).toEqual([
      {
        index: 0,
        code: 'event_altered',
        message: expect.stringContaining('was changed after it was recorded'),
      },
    ]);
  });

  it('detects an altered event whose own hash was recomputed: the next link breaks', async () => {
    const { path, events } = await recorded();
    const altered: EvidenceEvent = { ...events[1]!, result: 'denied' };
    altered.hashes = { ...altered.hashes, event_hash: eventHash(altered) };
    tamper(
      path,
      'UPDATE evidence_records SET event = ? WHERE chain = ? AND seq = 2',
      JSON.stringify(altered),
      buyer.id,
    );
    const result = await verifyFile(path);
    expect(result.problems.map((p) => [p.index, p.code])).toEqual([[2, 'chain_broken']]);
  });

  it('detects events of another mandate and a changed mandate document', () => {
    const seller = suiteMandate('marketplace-seller.valid.json');
    const fixture = suiteMandate('marketplace-buyer.valid.json');
    const chain = [
      {
        ...buildLike(fixture, 1),
        mandate_ref: { id: seller.id, hash: mandateHash(seller), version: '0.1.0' },
      },
    ] as EvidenceEvent[];
    chain[0]!.hashes = { event_hash: eventHash(chain[0]!) };
    expect(verifyEvidenceChain(chain, { mandate: fixture }).problems.map((p) => p.code)).toEqual([
      'mandate_mismatch',
    ]);
    const own = [buildLike(fixture, 1)];
    own[0]!.hashes = { event_hash: eventHash(own[0]!) };
    expect(verifyEvidenceChain(own, { mandate: fixture }).valid).toBe(true);
    const edited: Mandate = { ...fixture, expires_at: '2027-01-01T00:00:00Z' };
    expect(verifyEvidenceChain(own, { mandate: edited }).problems.map((p) => p.code)).toEqual([
      'mandate_hash_mismatch',
    ]);
  });
});

function buildLike(mandate: Mandate, sequence: number): EvidenceEvent {
  return {
    aump: { version: '0.1.0', type: 'evidence_event' },
    id: `aump_ev_${sequence}`,
    mandate_ref: { id: mandate.id, hash: mandateHash(mandate), version: '0.1.0' },
    sequence,
    created_at: '2026-04-25T18:00:00Z',
    event_type: 'deal_accepted',
    summary: 'x',
    result: 'allowed',
    actor: { role: 'runtime', id: 'r' },
    privacy: { retention: 'hashes', contains_private_fields: false },
  };
}
