// Generated ids are UUIDv7 (RFC 9562 §5.7): time-ordered, so stores append rather than scatter.
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/server/common/ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newId', () => {
  it('is a version 7, variant 10 UUID carrying the current Unix time in milliseconds', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(id).toMatch(V7);
    const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    // At most one millisecond ahead: a burst may have moved the clock forward (RFC 9562 §6.2).
    expect(ms).toBeLessThanOrEqual(after + 1);
  });

  it('is strictly increasing, also for many ids within one millisecond', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 100)) expect(id).toMatch(V7);
  });
});
