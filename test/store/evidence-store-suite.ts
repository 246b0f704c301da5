/**
 * The one test suite of the EvidenceStore port (house style 7): every implementation runs it.
 * Chains are append-only and gap-free, an append at a taken or skipped number is refused and
 * changes nothing, records come back exactly as appended, and nothing the caller does to its
 * objects afterwards reaches the stored chain.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EvidenceSequenceError, type EvidenceStore, type NewEvidenceRecord } from '../../src/store/index.js';

/** What a suite run needs: a fresh empty store and a way to dispose of it. */
export type OpenEvidenceStore = () => Promise<{ evidence: EvidenceStore; cleanup(): Promise<void> }>;

/** A record with sensible defaults. */
export function newEvidence(
  chain: string,
  sequence: number,
  extra: Record<string, unknown> = {},
): NewEvidenceRecord {
  return {
    chain,
    sequence,
    event: { id: `ev_${chain}_${sequence}`, summary: `event ${sequence}`, nested: { n: sequence }, ...extra },
    recordedAt: `2026-04-25T18:00:0${Math.min(sequence, 9)}.000Z`,
  };
}

/** Registers the EvidenceStore suite under `name`, against a fresh store from `open` per test. */
export function describeEvidenceStoreSuite(name: string, open: OpenEvidenceStore): void {
  describe(`EvidenceStore suite: ${name}`, () => {
    let store: EvidenceStore | undefined;
    let cleanup: (() => Promise<void>) | undefined;
    beforeEach(async () => {
      ({ evidence: store, cleanup } = await open());
    });
    afterEach(async () => {
      await cleanup?.();
      store = cleanup = undefined;
    });
    const s = (): EvidenceStore => store!;

    it('starts empty', async () => {
      expect(await s().chains()).toEqual([]);
      expect(await s().read('nothing')).toEqual([]);
      expect(await s().last('nothing')).toBeUndefined();
    });

    it('appends records in order and reads them back exactly', async () => {
      const first = await s().append(newEvidence('m1', 1));
      expect(first).toEqual(newEvidence('m1', 1));
      await s().append(newEvidence('m1', 2, { unicode: 'Grüße – 日本', float: 0.5, list: [1, 'a', null] }));
      await s().append(newEvidence('m1', 3));
      const chain = await s().read('m1');
      expect(chain.map((r) => r.sequence)).toEqual([1, 2, 3]);
      expect(chain[1]).toEqual(
        newEvidence('m1', 2, { unicode: 'Grüße – 日本', float: 0.5, list: [1, 'a', null] }),
      );
      expect(await s().last('m1')).toEqual(newEvidence('m1', 3));
    });

    it('keeps chains apart and lists them sorted', async () => {
      await s().append(newEvidence('zeta', 1));
      await s().append(newEvidence('alpha', 1));
      await s().append(newEvidence('zeta', 2));
      await s().append(newEvidence('alpha', 2));
      expect(await s().chains()).toEqual(['alpha', 'zeta']);
      expect((await s().read('alpha')).map((r) => r.event.id)).toEqual(['ev_alpha_1', 'ev_alpha_2']);
      expect((await s().read('zeta')).map((r) => r.event.id)).toEqual(['ev_zeta_1', 'ev_zeta_2']);
    });

    it('refuses a taken sequence number and changes nothing', async () => {
      await s().append(newEvidence('m1', 1));
      const error = await s()
        .append(newEvidence('m1', 1, { summary: 'a second first' }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EvidenceSequenceError);
      expect(error).toMatchObject({ chain: 'm1', sequence: 1, expected: 2 });
      expect((await s().read('m1')).map((r) => r.event.summary)).toEqual(['event 1']);
    });

    it('refuses a gap: a chain starts at 1 and grows by one', async () => {
      await expect(s().append(newEvidence('m1', 2))).rejects.toMatchObject({ expected: 1 });
      await s().append(newEvidence('m1', 1));
      await expect(s().append(newEvidence('m1', 3))).rejects.toBeInstanceOf(EvidenceSequenceError);
      expect(await s().read('m1')).toHaveLength(1);
    });

    it('lets exactly one of two concurrent appends at the same number win', async () => {
      await s().append(newEvidence('m1', 1));
      const outcomes = await Promise.allSettled([
        s().append(newEvidence('m1', 2, { by: 'a' })),
        s().append(newEvidence('m1', 2, { by: 'b' })),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(1);
      expect(await s().read('m1')).toHaveLength(2);
    });

    it('is not changed by what the caller does to its objects afterwards', async () => {
      const input = newEvidence('m1', 1);
      const returned = await s().append(input);
      (input.event.nested as { n: number }).n = 99;
      (returned.event.nested as { n: number }).n = 98;
      const read = await s().read('m1');
      (read[0]!.event.nested as { n: number }).n = 97;
      expect((await s().read('m1'))[0]!.event.nested).toEqual({ n: 1 });
    });

    it('fills in recordedAt when not given', async () => {
      const before = Date.now();
      const { recordedAt: _none, ...bare } = newEvidence('m1', 1);
      const record = await s().append(bare);
      expect(Date.parse(record.recordedAt)).toBeGreaterThanOrEqual(before - 1000);
    });

    it('refuses records it cannot store, naming the field', async () => {
      await expect(s().append({ ...newEvidence('m1', 1), chain: '' })).rejects.toThrow(/chain/);
      await expect(s().append({ ...newEvidence('m1', 1), sequence: 0 })).rejects.toThrow(/sequence/);
      await expect(s().append({ ...newEvidence('m1', 1), sequence: 1.5 })).rejects.toThrow(/sequence/);
      await expect(
        s().append({ ...newEvidence('m1', 1), event: [] as unknown as Record<string, unknown> }),
      ).rejects.toThrow(/event/);
      await expect(s().append({ ...newEvidence('m1', 1), recordedAt: 'yesterday' })).rejects.toThrow(
        /recordedAt/,
      );
      expect(await s().chains()).toEqual([]);
    });
  });
}
