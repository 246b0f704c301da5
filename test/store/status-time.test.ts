// Sortable status keys and page tokens: the shared pieces behind every store's ListTasks.
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/protocol/errors.js';
import { decodePageToken, encodePageToken } from '../../src/store/page-token.js';
import { statusTimeKey } from '../../src/store/status-time.js';

describe('statusTimeKey', () => {
  it.each([
    ['2025-01-01T00:00:00Z', '2025-01-01T00:00:00.000000000Z'],
    ['2025-01-01T00:00:00.123Z', '2025-01-01T00:00:00.123000000Z'],
    ['2025-01-01t00:00:00.5z', '2025-01-01T00:00:00.500000000Z'],
    ['2025-01-01T00:00:00.123456789999Z', '2025-01-01T00:00:00.123456789Z'],
    ['2025-01-01T01:30:00.5+02:00', '2024-12-31T23:30:00.500000000Z'],
    ['2025-12-31T23:00:00-01:00', '2026-01-01T00:00:00.000000000Z'],
    // Date.UTC would read year 50 as 1950.
    ['0050-01-01T00:00:00+01:00', '0049-12-31T23:00:00.000000000Z'],
  ])('normalises %s', (input, key) => {
    expect(statusTimeKey(input)).toBe(key);
  });

  it.each(['yesterday', '2025-01-01', '2025-01-01T00:00:00', '2025-01-01T00:00:00+0200', ''])(
    'refuses %j',
    (input) => {
      expect(statusTimeKey(input)).toBeUndefined();
    },
  );

  it('orders keys as the instants they stand for', () => {
    const instants = [
      '2025-06-01T12:00:00.000001Z',
      '2025-06-01T12:00:00Z',
      '2025-06-01T14:00:00.5+02:00',
      '2025-06-01T07:59:59.999-04:00',
      '2025-06-01T12:00:00.0001Z',
    ];
    const byKey = instants.slice().sort((a, b) => (statusTimeKey(a)! < statusTimeKey(b)! ? -1 : 1));
    expect(byKey).toEqual([
      '2025-06-01T07:59:59.999-04:00',
      '2025-06-01T12:00:00Z',
      '2025-06-01T12:00:00.000001Z',
      '2025-06-01T12:00:00.0001Z',
      '2025-06-01T14:00:00.5+02:00',
    ]);
  });
});

describe('page tokens', () => {
  it('round-trips a cursor through an opaque base64url token', () => {
    const cursor = { statusKey: '2025-01-01T00:00:00.000000000Z', taskId: 'tâche/1 "x"' };
    const token = encodePageToken(cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePageToken(token)).toEqual(cursor);
  });

  it('names /pageToken when refusing a token', () => {
    expect(() => decodePageToken('%%%')).toThrow(A2AError);
    expect(() => decodePageToken('%%%')).toThrow(/\/pageToken/);
  });
});
