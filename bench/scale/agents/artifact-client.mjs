// The client of the artifacts part, a process of its own (pinned to core 1) so its memory is its
// own: it receives one artifact and checks its SHA-256 without keeping the bytes, sampling its RSS
// as it goes, and prints one JSON line: { ms, bytes, sha256, ok, peakRssMiB, rss: [[ms, MiB]],
// taskId?, error? }.
//
// MODE=bare      GET the bare server's bytes (the floor)
// MODE=stream    SendStreamingMessage through Concord's client (dist/client) over BINDING
//                (HTTP+JSON, JSONRPC or GRPC), hashing each artifactUpdate's `raw` part
// MODE=readback  GetTask of TASK_ID through Concord's client over BINDING, hashing each part as
//                it arrives (`onArtifactPart`, decision 0173), with the default maxResponseBytes
// MODE=readwhole GetTask of TASK_ID through Concord's client, the task read whole, then hashed
// MODE=rawread   GetTask of TASK_ID over plain HTTP+JSON (node:http, JSON.parse of the answer):
//                what any reader of the unary answer holds, without the client's size limit
// URL is the server (the card's base URL, or the bare server's); TOTAL and CHUNK are bytes.

import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { A2AClient, CardCache } from '../../../dist/client/index.js';
import { expectedHash } from './artifact-bytes.mjs';

const { MODE, BINDING = 'HTTP+JSON', URL: url, TASK_ID } = process.env;
const total = Number(process.env.TOTAL);
const chunk = Number(process.env.CHUNK);
const expected = expectedHash(total, chunk);

const t0 = performance.now();
const rss = [];
const sample = () => rss.push([Math.round(performance.now() - t0), process.memoryUsage.rss() / 2 ** 20]);
const sampler = setInterval(sample, 100);
const hash = createHash('sha256');
let bytes = 0;
let taskId = TASK_ID;
let error;
/** How often the stream was taken up again with a Task holding parts already sent. */
let reattached = 0;

const take = (base64) => {
  const buf = Buffer.from(base64, 'base64');
  bytes += buf.length;
  hash.update(buf);
};
const takeTask = (task) => {
  for (const artifact of task.artifacts ?? [])
    for (const part of artifact.parts) if (part.raw) take(part.raw);
};

async function connect(bounded = false) {
  return A2AClient.connect(url, {
    allowPrivateNetworks: true,
    cardCache: new CardCache(),
    prefer: { bindings: [BINDING], versions: ['1.0'] },
    // One long stream: no idle cut while the store writes a large commit.
    streamIdleTimeoutMs: 0,
    timeoutMs: 600_000,
    // The read back is one answer holding the whole artifact as base64: the default bound (16 MiB)
    // refuses it past about 12 MB, as it should for an answer nobody expected to be that large.
    // Read a part at a time, the default bound (one part and the rest of the answer) holds.
    ...(bounded ? {} : { maxResponseBytes: Math.min(2 ** 31 - 1, Math.ceil(total * 1.4) + (1 << 20)) }),
  });
}

try {
  if (MODE === 'bare') {
    await new Promise((resolve, reject) => {
      request(`${url}/bytes?total=${total}&chunk=${chunk}`, (res) => {
        res.on('data', (c) => {
          bytes += c.length;
          hash.update(c);
        });
        res.on('end', resolve);
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
  } else if (MODE === 'stream') {
    const client = await connect();
    const message = {
      messageId: randomUUID(),
      role: 'ROLE_USER',
      parts: [{ text: `artifact ${total} ${chunk}` }],
    };
    // Parts taken so far: a stream that is cut off (the server's hub bounds what a slow reader may
    // queue) and taken up again over gRPC, which has no cursor, starts again with the whole Task,
    // whose artifact holds the parts already taken; only the ones after them are new.
    let parts = 0;
    for await (const event of client.sendStreamingMessage({ message })) {
      if ('task' in event) {
        taskId = event.task.id;
        const held = (event.task.artifacts ?? []).flatMap((a) => a.parts.filter((p) => p.raw));
        if (held.length > parts) reattached++;
        for (const part of held.slice(parts)) take(part.raw);
        parts = Math.max(parts, held.length);
      } else if ('statusUpdate' in event) taskId = event.statusUpdate.taskId;
      else if ('artifactUpdate' in event) {
        taskId = event.artifactUpdate.taskId;
        for (const part of event.artifactUpdate.artifact.parts)
          if (part.raw) {
            take(part.raw);
            parts++;
          }
      }
    }
    client.close();
  } else if (MODE === 'readback') {
    const client = await connect(true);
    await client.getTask({ id: taskId }, { onArtifactPart: (part) => part.raw && take(part.raw) });
    client.close();
  } else if (MODE === 'readwhole') {
    const client = await connect();
    takeTask(await client.getTask({ id: taskId }));
    client.close();
  } else if (MODE === 'rawread') {
    const text = await new Promise((resolve, reject) => {
      request(`${url}/tasks/${taskId}`, { headers: { 'a2a-version': '1.0' } }, (res) => {
        const parts = [];
        res.on('data', (c) => parts.push(c));
        res.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
    takeTask(JSON.parse(text));
  } else {
    throw new RangeError(`MODE: unknown mode ${MODE}`);
  }
} catch (e) {
  error = `${e.name}: ${e.message}`.slice(0, 300);
}
clearInterval(sampler);
sample();
const sha256 = hash.digest('hex');
const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
process.stdout.write(
  `${JSON.stringify({
    ms: performance.now() - t0,
    bytes,
    sha256,
    ok: error === undefined && sha256 === expected && bytes === total,
    peakRssMiB: hwm ? Number(hwm[1]) / 1024 : null,
    rss,
    taskId,
    reattached,
    ...(error === undefined ? {} : { error }),
  })}\n`,
);
process.exit(0);
