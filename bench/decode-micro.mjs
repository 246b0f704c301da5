// CPU cost of decoding one send request (`npm run build && node bench/decode-micro.mjs [distA distB]`):
// `decodeSendMessageRequest` of the 1.0 and 0.3 JSON-RPC codecs on a small message/send body,
// 100k decodes per round, rounds interleaved between the builds given (default: ../dist), best
// round in ns per decode of process CPU time. Use it to A/B a change to the request decoders
// (decision 0136 measured the two-spelling readers with it); handler-micro.mjs is the whole send.
//
// Environment: DECODE_ROUNDS (default 30), DECODE_N (decodes per round, default 100000).

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dists =
  process.argv.length > 2 ? process.argv.slice(2) : [new URL('../dist', import.meta.url).pathname];
const ROUNDS = Number(process.env.DECODE_ROUNDS ?? 30);
const N = Number(process.env.DECODE_N ?? 100_000);

const codecs = [];
for (const dist of dists) codecs.push(await import(pathToFileURL(resolve(dist, 'protocol/index.js')).href));

const BODIES = {
  '1.0': {
    message: { messageId: 'm-1234', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
    configuration: { acceptedOutputModes: ['text/plain'] },
  },
  0.3: {
    message: { kind: 'message', messageId: 'm-1234', role: 'user', parts: [{ kind: 'text', text: 'hello' }] },
    configuration: { acceptedOutputModes: ['text/plain'], blocking: true },
  },
};

function round(protocol, version) {
  const codec = version === '1.0' ? protocol.v1_0Codec : protocol.v0_3JsonRpcCodec;
  const text = JSON.stringify(BODIES[version]);
  // Fresh objects as JSON.parse makes them for each request, 1000 reused round-robin.
  const bodies = Array.from({ length: 1000 }, () => JSON.parse(text));
  let parts = 0;
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++)
    parts += codec.decodeSendMessageRequest(bodies[i % 1000], '/params').message.parts.length;
  const used = process.cpuUsage(start);
  if (parts !== N) throw new Error('decoded the wrong message');
  return ((used.user + used.system) * 1000) / N;
}

for (const version of ['1.0', '0.3']) {
  const best = dists.map(() => Infinity);
  for (let r = 0; r < ROUNDS; r++)
    for (let k = 0; k < codecs.length; k++) best[k] = Math.min(best[k], round(codecs[k], version));
  const line = dists.map((dist, k) => `${dist}: ${best[k].toFixed(1)} ns`).join('  |  ');
  process.stdout.write(`${version} decodeSendMessageRequest, best of ${ROUNDS}: ${line}\n`);
}
