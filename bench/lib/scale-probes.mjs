// Small measuring tools of the scale parts (bench/scale/*.mjs): a process's CPU time at nanosecond
// resolution, percentiles, one raw HTTP exchange timed to the byte, and an SSE reader that counts
// events as they arrive. Raw node:http rather than Concord's client where the part measures the
// server: the bytes on the wire and the time of each event are what is asked, with no client cost.

import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * CPU seconds the process `pid` has used, summed over its threads from /proc/<pid>/task/<tid>/schedstat
 * (nanoseconds; /proc/<pid>/stat counts 10 ms ticks, too coarse for a 1 ms call). Null off Linux.
 */
export function processCpuSeconds(pid) {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    }
    return ns / 1e9;
  } catch {
    return null;
  }
}

/** The `p`th percentile (0-100) of `values`, nearest rank; null when empty. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * One HTTP exchange: resolves { status, ms, bytes, body? } once the answer is read (`keep` keeps
 * the body as text; otherwise only its length is counted).
 */
export function exchange(url, { method = 'GET', headers = {}, body, agent, keep = false } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { method, headers, agent }, (res) => {
      let bytes = 0;
      const chunks = [];
      res.on('data', (c) => {
        bytes += c.length;
        if (keep) chunks.push(c);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          ms: performance.now() - t0,
          bytes,
          ...(keep ? { body: Buffer.concat(chunks).toString('utf8') } : {}),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Opens an SSE answer and reads `count` events (blocks with a `data:` line; heartbeat comments are
 * not events), then closes the connection. Resolves { status, firstMs, lastMs, bytes, ids }: the
 * times from the request to the first and to the `count`th event, the bytes received by then, and
 * the events' ids in order.
 */
export function readSseEvents(url, { method = 'POST', headers = {}, body, count }) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { method, headers }, (res) => {
      if (res.statusCode !== 200) {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => reject(new Error(`SSE answer ${res.statusCode}: ${text.slice(0, 300)}`)));
        return;
      }
      let bytes = 0;
      let pending = '';
      let firstMs = null;
      const ids = [];
      res.setEncoding('utf8');
      res.on('data', (text) => {
        bytes += Buffer.byteLength(text);
        pending += text;
        let end;
        while ((end = pending.indexOf('\n\n')) !== -1) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          if (!/^data:/m.test(block)) continue;
          firstMs ??= performance.now() - t0;
          ids.push(/^id: ?(.*)$/m.exec(block)?.[1] ?? null);
          if (ids.length === count) {
            const lastMs = performance.now() - t0;
            req.destroy();
            resolve({ status: 200, firstMs, lastMs, bytes, ids });
            return;
          }
        }
      });
      res.on('end', () => reject(new Error(`SSE answer ended after ${ids.length} of ${count} events`)));
    });
    req.on('error', (e) => (e.code === 'ECONNRESET' ? undefined : reject(e)));
    req.end(body);
  });
}
