/**
 * Decision 0136, the liberal mode of the decode kit itself: it exists only inside `readLiberally`
 * (strict before, after and around it), keeps an unknown enum number as its decimal string (gRPC
 * answers carry numbers), and a nested reading restores the outer sink.
 */
import { describe, expect, it } from 'vitest';
import { readLiberally, type ReadWarning } from '../../src/protocol/internal.js';
import { v1_0Codec } from '../../src/protocol/v1_0/index.js';

const task = (state: unknown) => ({ id: 't', contextId: 'c', status: { state } });

describe('liberal decoding', () => {
  it('keeps an unknown enum number as its decimal string, with a warning', () => {
    const warnings: ReadWarning[] = [];
    const decoded = readLiberally(
      () => v1_0Codec.decodeTask(task(99), ''),
      (w) => warnings.push(w),
    );
    expect(decoded.status.state).toBe('99');
    expect(warnings).toEqual([{ path: '/status/state', message: 'unknown value 99 kept as "99"' }]);
  });

  it('is strict outside readLiberally, also after a liberal reading threw', () => {
    expect(() =>
      readLiberally(
        () => {
          throw new Error('boom');
        },
        () => undefined,
      ),
    ).toThrow('boom');
    expect(() => v1_0Codec.decodeTask(task('TASK_STATE_PONDERING'), '')).toThrow(/unknown value/);
  });

  it('a nested reading reports to its own sink and restores the outer one', () => {
    const outer: ReadWarning[] = [];
    const inner: ReadWarning[] = [];
    readLiberally(
      () => {
        readLiberally(
          () => v1_0Codec.decodeTask(task('A'), '/inner'),
          (w) => inner.push(w),
        );
        v1_0Codec.decodeTask(task('B'), '/outer');
      },
      (w) => outer.push(w),
    );
    expect(inner.map((w) => w.path)).toEqual(['/inner/status/state']);
    expect(outer.map((w) => w.path)).toEqual(['/outer/status/state']);
  });
});
