// Fallback load generator (used when wrk is not installed): one autocannon run, executed as its
// own process so the harness can pin it to core 1. Reads its job as JSON from argv[2], prints one
// JSON result line on stdout. autocannon saturates one core at roughly 12k req/s here, below what
// the bare server can do, which is why wrk is preferred.
//
// Job: { url, rpcMethod: 'message/send' | 'message/stream', connections, duration (s) }

import autocannon from 'autocannon';
import { REQUEST_HEADERS, looksCompleted, rpcBody } from './payload.mjs';

const job = JSON.parse(process.argv[2]);
// Bad bodies among 2xx replies only: non-2xx replies are already counted as non2xx.
let mismatches = 0;

const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.duration,
  // A server that stalls must show up as timeouts, not hang the run.
  timeout: 10,
  requests: [
    {
      method: 'POST',
      headers: REQUEST_HEADERS,
      // A fresh body (new messageId, new JSON-RPC id) for every request.
      setupRequest(request) {
        request.body = rpcBody(job.rpcMethod, job.kind);
        return request;
      },
      // JSON-RPC errors or replies without the completed echo task.
      onResponse(status, body) {
        if (status >= 200 && status < 300 && !looksCompleted(body)) mismatches++;
      },
    },
  ],
});

process.stdout.write(
  JSON.stringify({
    total: result.requests.total,
    requestsPerSec: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    // autocannon counts timeouts among errors too; keep the two apart.
    errors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    mismatches,
    duration: result.duration,
    // Own CPU time, so the harness can tell outside load apart from ours.
    cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
  }) + '\n',
);
