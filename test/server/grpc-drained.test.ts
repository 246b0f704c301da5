/**
 * A gRPC server stream's wait for `drain` (src/server/grpc/drained.ts): it ends on drain or on the
 * caller's abort, and no wait leaves a listener behind on the stream or on the call's signal, so a
 * long stream to a slow reader does not grow with every wait (issue 27).
 */
import { EventEmitter, getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { drained } from '../../src/server/grpc/drained.js';

describe('waiting for a gRPC stream to drain', () => {
  it('leaves no listener behind after many drains', async () => {
    const stream = new EventEmitter();
    const controller = new AbortController();
    for (let i = 0; i < 1000; i++) {
      const wait = drained(stream, controller.signal);
      stream.emit('drain');
      await wait;
    }
    expect(stream.listenerCount('drain')).toBe(0);
    expect(stream.listenerCount('error')).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('ends when the caller goes away, and leaves no listener on the stream', async () => {
    const stream = new EventEmitter();
    const controller = new AbortController();
    const wait = drained(stream, controller.signal);
    controller.abort();
    await expect(wait).resolves.toBeUndefined();
    expect(stream.listenerCount('drain')).toBe(0);
  });

  it('fails with the stream error', async () => {
    const stream = new EventEmitter();
    const wait = drained(stream, new AbortController().signal);
    stream.emit('error', new Error('reset by peer'));
    await expect(wait).rejects.toThrow('reset by peer');
  });
});
