/**
 * docs/performance.md, 'Releasing registries': a finished request must not stay reachable from the
 * server once it is answered. The V8 side of it (how many bytes of each send the scavenges promote,
 * `--trace-gc-nvp`) asserts V8 internals, so it is a benchmark check now: `npm run bench:gc`
 * (bench/gc-promotion.mjs). What stays here is what the node adapter itself holds on to.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { sendText } from '../helpers/a2a-http.js';
import { startEcho } from '../helpers/echo-server.js';

describe('request bodies and the old generation (docs/performance.md, "Releasing registries")', () => {
  it('leaves no listener on a request once its body is read', async () => {
    // Left attached, the body reader's closures tied each send's request to the old generation.
    const echo = await startEcho();
    const requests: IncomingMessage[] = [];
    echo.running.server.on('request', (req: IncomingMessage) => requests.push(req));
    try {
      expect((await sendText(echo.url, 'hi', false)).status.state).toBe('TASK_STATE_COMPLETED');
      // A body over the limit is refused part way through; the reader lets go then too.
      const big = await fetch(echo.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(2 << 20),
      });
      expect(big.status).toBe(413);
      expect(requests).toHaveLength(2);
      for (const req of requests) {
        // node:http's own `clearIncoming` waits for the end of a body the response did not wait for.
        const ours = (event: string): number =>
          req.listeners(event).filter((listener) => listener.name !== 'clearIncoming').length;
        expect(['data', 'end', 'error'].map(ours)).toEqual([0, 0, 0]);
      }
    } finally {
      await echo.close();
    }
  });
});
