/**
 * The one test suite of the ApprovalStore port (house style 7): every implementation runs it. It
 * pins down `requiresApproval` persistence (decision 0017): a pending record as created,
 * the queue order and its cursor, exactly one winning decision, the audit log, and a clear refusal
 * of every bad input.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { A2AError } from '../../src/protocol/errors.js';
import {
  ApprovalConflictError,
  ApprovalExistsError,
  ApprovalNotFoundError,
  type ApprovalQuery,
  type ApprovalStore,
  type NewApproval,
} from '../../src/store/index.js';

/** What a suite run needs: a fresh empty store and a way to dispose of it. */
export type OpenApprovalStore = () => Promise<{ approvals: ApprovalStore; cleanup(): Promise<void> }>;

/** A new approval with sensible defaults. */
export function newApproval(id: string, overrides: Partial<NewApproval> = {}): NewApproval {
  return {
    id,
    taskId: `task-of-${id}`,
    contextId: 'ctx-1',
    tenant: 'acme',
    owner: 'alice',
    contract: 'refund',
    requestedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Registers the ApprovalStore suite under `name`, against a fresh store from `open` per test. */
export function describeApprovalStoreSuite(name: string, open: OpenApprovalStore): void {
  describe(`ApprovalStore suite: ${name}`, () => {
    let store: ApprovalStore | undefined;
    let cleanup: (() => Promise<void>) | undefined;
    beforeEach(async () => {
      ({ approvals: store, cleanup } = await open());
    });
    afterEach(async () => {
      await cleanup?.();
      store = cleanup = undefined;
    });
    const s = (): ApprovalStore => store!;
    const ids = async (query: ApprovalQuery): Promise<string[]> =>
      (await s().list(query)).approvals.map((a) => a.id);

    describe('create and read', () => {
      it('creates a pending approval and reads it back by id and by task', async () => {
        const input = newApproval('a1', { correlationId: 'corr-7' });
        const created = await s().create(input);
        expect(created).toEqual({ ...input, status: 'pending' });
        expect(await s().get('a1')).toEqual(created);
        expect(await s().findByTask('task-of-a1')).toEqual(created);
        expect(await s().history('a1')).toEqual([{ at: input.requestedAt, action: 'requested' }]);
      });

      it('keeps the default tenant and anonymous owner as empty strings, and leaves absent fields absent', async () => {
        const created = await s().create(newApproval('a1', { tenant: '', owner: '' }));
        expect(created.tenant).toBe('');
        expect(created.owner).toBe('');
        expect(Object.keys(created).sort()).toEqual(
          ['contextId', 'contract', 'id', 'owner', 'requestedAt', 'status', 'taskId', 'tenant'].sort(),
        );
      });

      it('answers undefined, not an error, for unknown ids and tasks', async () => {
        await s().create(newApproval('a1'));
        expect(await s().get('nope')).toBeUndefined();
        expect(await s().findByTask('no-such-task')).toBeUndefined();
        expect(await s().history('nope')).toEqual([]);
      });

      it('hands out copies: changing a returned record changes nothing stored', async () => {
        const created = await s().create(newApproval('a1'));
        created.status = 'approved';
        const read = (await s().get('a1'))!;
        read.owner = 'mallory';
        (await s().history('a1'))[0]!.action = 'approved';
        expect(await s().get('a1')).toMatchObject({ status: 'pending', owner: 'alice' });
        expect((await s().history('a1'))[0]!.action).toBe('requested');
      });

      it('never creates a decided approval, whatever extra fields the caller passes', async () => {
        const sneaky = { ...newApproval('a1'), status: 'approved', decidedBy: 'mallory' } as NewApproval;
        expect(await s().create(sneaky)).toEqual({ ...newApproval('a1'), status: 'pending' });
      });

      it('refuses a duplicate id and keeps the first approval as it was', async () => {
        await s().create(newApproval('a1'));
        const again = s().create(newApproval('a1', { taskId: 'other' }));
        await expect(again).rejects.toBeInstanceOf(ApprovalExistsError);
        await expect(again).rejects.toThrow('approval a1 already exists');
        expect((await s().get('a1'))!.taskId).toBe('task-of-a1');
        expect(await s().findByTask('other')).toBeUndefined();
        expect(await s().history('a1')).toHaveLength(1);
      });

      it('refuses bad new approvals, naming the field', async () => {
        const bad: [Partial<Record<keyof NewApproval, unknown>>, RegExp][] = [
          [{ id: '' }, /approval\.id must be a non-empty string, got ""/],
          [{ taskId: undefined }, /approval\.taskId must be a non-empty string, got undefined/],
          [{ contract: 42 }, /approval\.contract must be a non-empty string, got 42/],
          [{ tenant: null }, /approval\.tenant must be a string, got null/],
          [{ requestedAt: 'yesterday' }, /approval\.requestedAt must be an RFC 3339 timestamp/],
          [{ correlationId: '' }, /approval\.correlationId must be a non-empty string/],
        ];
        for (const [overrides, message] of bad) {
          const input = { ...newApproval('bad'), ...overrides } as NewApproval;
          await expect(s().create(input)).rejects.toThrow(message);
        }
        expect(await s().get('bad')).toBeUndefined();
      });

      it('finds the latest approval of a task that was held more than once', async () => {
        await s().create(newApproval('first', { taskId: 't' }));
        await s().decide('first', { status: 'rejected', decidedBy: 'owner' });
        await s().create(newApproval('other', { taskId: 'u' }));
        await s().create(newApproval('second', { taskId: 't' }));
        expect((await s().findByTask('t'))!.id).toBe('second');
        expect((await s().findByTask('u'))!.id).toBe('other');
      });
    });

    describe('list', () => {
      it('lists in creation order (a queue), not by id or requestedAt', async () => {
        await s().create(newApproval('b', { requestedAt: '2025-03-01T00:00:00Z' }));
        await s().create(newApproval('c', { requestedAt: '2025-01-01T00:00:00Z' }));
        await s().create(newApproval('a', { requestedAt: '2025-02-01T00:00:00Z' }));
        expect(await s().list({})).toEqual({
          approvals: [
            expect.objectContaining({ id: 'b', status: 'pending' }),
            expect.objectContaining({ id: 'c' }),
            expect.objectContaining({ id: 'a' }),
          ],
          nextPageToken: '',
        });
      });

      it('pages 50 at a time by default, up to 500 on request', async () => {
        for (let i = 0; i < 51; i++) await s().create(newApproval(`a${i}`));
        const first = await s().list({});
        expect(first.approvals).toHaveLength(50);
        expect(first.nextPageToken).not.toBe('');
        const rest = await s().list({ pageToken: first.nextPageToken });
        expect(rest.approvals.map((a) => a.id)).toEqual(['a50']);
        expect(rest.nextPageToken).toBe('');
        expect((await s().list({ pageSize: 500 })).approvals).toHaveLength(51);
      });

      it('walks every approval once with small pages, and an exactly full last page ends the walk', async () => {
        for (let i = 0; i < 6; i++) await s().create(newApproval(`a${i}`));
        const seen: string[] = [];
        let token = '';
        let pages = 0;
        do {
          const page = await s().list({ pageSize: 2, pageToken: token });
          seen.push(...page.approvals.map((a) => a.id));
          token = page.nextPageToken;
          pages++;
        } while (token !== '');
        expect(seen).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5']);
        expect(pages).toBe(3);
      });

      it('filters by status', async () => {
        for (const id of ['p1', 'y1', 'n1', 'p2', 'y2']) await s().create(newApproval(id));
        await s().decide('y1', { status: 'approved', decidedBy: 'owner' });
        await s().decide('y2', { status: 'approved', decidedBy: 'owner' });
        await s().decide('n1', { status: 'rejected', decidedBy: 'owner' });
        expect(await ids({ status: 'pending' })).toEqual(['p1', 'p2']);
        expect(await ids({ status: 'approved' })).toEqual(['y1', 'y2']);
        expect(await ids({ status: 'rejected' })).toEqual(['n1']);
        const page = await s().list({ status: 'approved', pageSize: 1 });
        expect(page.approvals.map((a) => a.id)).toEqual(['y1']);
        expect(await ids({ status: 'approved', pageToken: page.nextPageToken })).toEqual(['y2']);
      });

      it('keeps its cursor exact while approvals are added and decided between pages', async () => {
        for (let i = 0; i < 4; i++) await s().create(newApproval(`a${i}`));
        const first = await s().list({ status: 'pending', pageSize: 2 });
        expect(first.approvals.map((a) => a.id)).toEqual(['a0', 'a1']);
        // The owner works through the queue: page one decided, one ahead decided, newcomers queued.
        await s().decide('a0', { status: 'approved', decidedBy: 'owner' });
        await s().decide('a2', { status: 'rejected', decidedBy: 'owner' });
        await s().create(newApproval('a4'));
        await s().create(newApproval('a5'));
        const second = await s().list({ status: 'pending', pageSize: 2, pageToken: first.nextPageToken });
        expect(second.approvals.map((a) => a.id)).toEqual(['a3', 'a4']);
        expect(await ids({ status: 'pending', pageSize: 2, pageToken: second.nextPageToken })).toEqual([
          'a5',
        ]);
      });

      it('refuses bad queries and foreign page tokens as InvalidParams naming the field', async () => {
        await s().create(newApproval('a1'));
        const taskToken = Buffer.from(JSON.stringify(['2025-01-01T00:00:00.000000000Z', 't1'])).toString(
          'base64url',
        );
        const cases: [ApprovalQuery, string][] = [
          [{ pageSize: 0 }, '/pageSize'],
          [{ pageSize: 501 }, '/pageSize'],
          [{ pageSize: 2.5 }, '/pageSize'],
          [{ status: 'maybe' as 'pending' }, '/status'],
          [{ pageToken: 'not a token!' }, '/pageToken'],
          [{ pageToken: 'abc' }, '/pageToken'],
          [{ pageToken: taskToken }, '/pageToken'],
          [{ pageToken: Buffer.from('{"approvalsAfter":-3}').toString('base64url') }, '/pageToken'],
        ];
        for (const [query, field] of cases) {
          const error = await s()
            .list(query)
            .then(
              () => undefined,
              (e: unknown) => e,
            );
          expect(error, JSON.stringify(query)).toBeInstanceOf(A2AError);
          expect((error as A2AError).type).toBe('InvalidParamsError');
          expect((error as A2AError).violations?.[0]?.field, JSON.stringify(query)).toBe(field);
        }
        expect(await ids({ pageToken: '' })).toEqual(['a1']);
      });
    });

    describe('decide', () => {
      it('approves once, records who, when and why, and audits it', async () => {
        await s().create(newApproval('a1'));
        const decision = {
          status: 'approved' as const,
          decidedBy: 'owner',
          reason: 'looks fine',
          decidedAt: '2025-01-02T10:00:00Z',
        };
        const decided = await s().decide('a1', decision);
        expect(decided).toEqual({ ...newApproval('a1'), ...decision });
        expect(await s().get('a1')).toEqual(decided);
        expect(await s().findByTask('task-of-a1')).toEqual(decided);
        expect(await s().history('a1')).toEqual([
          { at: '2025-01-01T00:00:00.000Z', action: 'requested' },
          { at: '2025-01-02T10:00:00Z', action: 'approved', by: 'owner', reason: 'looks fine' },
        ]);
      });

      it('rejects, stamping the time of the call when none is given', async () => {
        await s().create(newApproval('a1'));
        const before = Date.now();
        const decided = await s().decide('a1', { status: 'rejected', decidedBy: 'owner' });
        const at = Date.parse(decided.decidedAt!);
        expect(at).toBeGreaterThanOrEqual(before);
        expect(at).toBeLessThanOrEqual(Date.now());
        expect(decided).not.toHaveProperty('reason');
        expect((await s().history('a1'))[1]).toEqual({
          at: decided.decidedAt,
          action: 'rejected',
          by: 'owner',
        });
      });

      for (const [first, second] of [
        ['approved', 'rejected'],
        ['rejected', 'approved'],
        ['approved', 'approved'],
      ] as const) {
        it(`lets the first decision stand: ${first}, then ${second}, is a conflict`, async () => {
          await s().create(newApproval('a1'));
          const won = await s().decide('a1', { status: first, decidedBy: 'owner', reason: 'first' });
          const late = s().decide('a1', { status: second, decidedBy: 'deputy', reason: 'second' });
          await expect(late).rejects.toBeInstanceOf(ApprovalConflictError);
          await expect(late).rejects.toThrow(`approval a1 was already ${first} by owner`);
          const error = (await late.catch((e: unknown) => e)) as ApprovalConflictError;
          expect(error.current).toEqual(won);
          expect(await s().get('a1')).toEqual(won);
          expect((await s().history('a1')).map((e) => e.action)).toEqual(['requested', first]);
        });
      }

      it('lets exactly one of two racing decisions win', async () => {
        await s().create(newApproval('a1'));
        const results = await Promise.allSettled([
          s().decide('a1', { status: 'approved', decidedBy: 'owner' }),
          s().decide('a1', { status: 'rejected', decidedBy: 'deputy' }),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r) => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect(lost[0]!.reason).toBeInstanceOf(ApprovalConflictError);
        expect(await s().get('a1')).toEqual(won[0]!.value);
        expect(await s().history('a1')).toHaveLength(2);
      });

      it('throws ApprovalNotFoundError for an unknown id', async () => {
        const missing = s().decide('ghost', { status: 'approved', decidedBy: 'owner' });
        await expect(missing).rejects.toBeInstanceOf(ApprovalNotFoundError);
        await expect(missing).rejects.toThrow('no approval ghost');
        expect(await s().history('ghost')).toEqual([]);
      });

      it('refuses bad decisions, naming the field, and decides nothing', async () => {
        await s().create(newApproval('a1'));
        const bad: [Record<string, unknown>, RegExp][] = [
          [
            { status: 'maybe', decidedBy: 'owner' },
            /decision\.status on approval a1 must be "approved" or "rejected", got "maybe"/,
          ],
          [{ status: 'pending', decidedBy: 'owner' }, /decision\.status/],
          [
            { status: 'approved', decidedBy: '' },
            /decision\.decidedBy on approval a1 must be a non-empty string/,
          ],
          [
            { status: 'approved', decidedBy: 'owner', decidedAt: 'soon' },
            /decision\.decidedAt on approval a1 must be an RFC 3339 timestamp/,
          ],
          [
            { status: 'approved', decidedBy: 'owner', reason: 7 },
            /decision\.reason on approval a1 must be a string, got 7/,
          ],
        ];
        for (const [decision, message] of bad) {
          await expect(s().decide('a1', decision as never)).rejects.toThrow(message);
        }
        expect((await s().get('a1'))!.status).toBe('pending');
        expect(await s().history('a1')).toHaveLength(1);
      });
    });
  });
}
