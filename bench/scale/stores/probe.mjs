// Read latencies over real HTTP (bench/scale/stores.mjs): one keep-alive connection, requests one
// after another, so each sample is one request's whole time (A2A 1.0 HTTP+JSON, §11.3), and the
// server sees no other load while it is measured.

import http from 'node:http';

/** A GET client of one server; `get(path)` resolves { status, body } and its time in ms. */
export function probeClient(port) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path) =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = http.get(
        { host: '127.0.0.1', port, path, agent, headers: { 'A2A-Version': '1.0' } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const ms = Number(process.hrtime.bigint() - started) / 1e6;
            resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8'), ms });
          });
        },
      );
      req.on('error', reject);
    });
  return { get, close: () => agent.destroy() };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/**
 * Runs `count` requests of `pathOf(k)` after `warm` unmeasured ones; every answer must pass
 * `check(status, body)` (a fast wrong answer must not look fast). Resolves { p50, p99, n } in ms.
 */
export async function measure(client, pathOf, count, check, warm = Math.min(50, count)) {
  const times = [];
  for (let k = 0; k < warm + count; k++) {
    const path = pathOf(k);
    const { status, body, ms } = await client.get(path);
    const wrong = check(status, body);
    if (wrong) throw new Error(`GET ${path}: ${wrong} (status ${status}: ${body.slice(0, 200)})`);
    if (k >= warm) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), n: times.length };
}
