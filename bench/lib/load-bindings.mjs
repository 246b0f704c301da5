// A small Node load generator for one binding of one server (bench/grpc-run.mjs): keeps
// `connections` unary A2A 1.0 SendMessage calls in flight for `duration` seconds and prints one
// JSON line {binding, requests, errors, rps, p50, p99} (latencies in ms). The same generator
// drives gRPC (@grpc/grpc-js, one HTTP/2 channel multiplexing the calls, as gRPC clients do),
// JSON-RPC and HTTP+JSON (node:http with a keep-alive pool of `connections` sockets), so the three
// lines compare the bindings rather than the load tools. The first reply of each binding is
// decoded and checked to be the completed echo task; later ones are counted as errors only when
// the call fails or the HTTP status is not 200.
//
// Usage: node bench/lib/load-bindings.mjs <grpc|jsonrpc|rest> <target> <connections> <seconds>

import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { credentials, Metadata, makeGenericClientConstructor } from '@grpc/grpc-js';
import { grpcSchema } from '../../dist/client/transports/grpc-schema.js';
import { ECHO_TEXT, INPUT_TEXT } from './payload.mjs';

const [binding, target, connArg, secArg] = process.argv.slice(2);
const connections = Number(connArg);
const seconds = Number(secArg);

const message = () => ({ messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: INPUT_TEXT }] });

function checkTask(task) {
  const text = task?.artifacts?.[0]?.parts?.[0]?.text;
  if (task?.status?.state !== 'TASK_STATE_COMPLETED' || text !== ECHO_TEXT) {
    throw new Error(`not the completed echo task: ${JSON.stringify(task).slice(0, 200)}`);
  }
}

/** One call; resolves true on success. `first` decodes and checks the reply. */
function makeCaller() {
  if (binding === 'grpc') {
    const method = grpcSchema().services['1.0'].method('sendMessage');
    const Ctor = makeGenericClientConstructor({}, 'lf.a2a.v1.A2AService');
    const client = new Ctor(target, credentials.createInsecure());
    const id = (b) => b;
    return (first) =>
      new Promise((resolve) => {
        const md = new Metadata();
        md.set('a2a-version', '1.0');
        client.makeUnaryRequest(
          method.path,
          id,
          id,
          method.writeRequest({ message: message() }),
          md,
          (e, value) => {
            if (e !== null) return resolve(false);
            if (first) checkTask(method.readResult(value).task);
            resolve(true);
          },
        );
      });
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(binding === 'rest' ? `${target}message:send` : target);
  return (first) =>
    new Promise((resolve) => {
      const params = { message: message() };
      const body = JSON.stringify(
        binding === 'rest' ? params : { jsonrpc: '2.0', id: 1, method: 'SendMessage', params },
      );
      const req = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'a2a-version': '1.0',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode !== 200) return resolve(false);
            if (first) {
              const json = JSON.parse(Buffer.concat(chunks).toString());
              checkTask((binding === 'rest' ? json : json.result).task);
            }
            resolve(true);
          });
        },
      );
      req.on('error', () => resolve(false));
      req.end(body);
    });
}

const call = makeCaller();
if (!(await call(true))) throw new Error(`${binding}: the first call failed`);
const latencies = [];
let errors = 0;
const end = performance.now() + seconds * 1000;
async function worker() {
  while (performance.now() < end) {
    const started = performance.now();
    const ok = await call(false);
    if (ok) latencies.push(performance.now() - started);
    else errors++;
  }
}
await Promise.all(Array.from({ length: connections }, worker));
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
process.stdout.write(
  `${JSON.stringify({ binding, requests: latencies.length, errors, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99) })}\n`,
);
process.exit(0);
