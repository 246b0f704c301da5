// Contracts micro-benchmark (`npx tsc -p tsconfig.build.json && node bench/contracts-micro.mjs`):
// what contract validation costs, measured two ways, in one process, without HTTP.
//
// 1. The delivery gate alone (`gateMessage`), per message: every input schema of the seed
//    (OpenClaw PR #19293 a2a-contracts.md: research.request, research.query-v2, the deprecated research.query,
//    the pipeline's research.query and review.findings) as a data part, research.request also as a
//    text part, and a plain text message.
// 2. An A/B of whole requests through `server.handle()`: the benchmark's echo agent with its
//    research.request contract (gated) and the same agent without it (ungated, the control: the
//    envelope is then an ordinary data part), both on the memory store, answering the same 0.3
//    JSON-RPC `message/send` carrying the envelope that `npm run bench` sends. CPU time per request
//    (process.cpuUsage, user + system), in interleaved rounds (ABBA order), 32 requests in flight.
//    Every reply is checked to be a completed task with the echo artifact.
//
// Environment: CONTRACTS_BENCH_ITERATIONS (gate loop, default 200000), CONTRACTS_BENCH_REQUESTS
// (requests per side per round, default 4000), CONTRACTS_BENCH_ROUNDS (default 6).

import { performance } from 'node:perf_hooks';
import { URLSearchParams } from 'node:url';
import { compileContracts, createContractMessage, gateMessage } from '../dist/contracts/index.js';
import { createA2AServer } from '../dist/server/index.js';
import { createMemoryTaskStore } from '../dist/store/index.js';
import { BENCH_CONTRACT, checkSendReply, REQUEST_HEADERS, rpcBody } from './lib/payload.mjs';

const ITERATIONS = Number(process.env.CONTRACTS_BENCH_ITERATIONS ?? 200_000);
const REQUESTS = Number(process.env.CONTRACTS_BENCH_REQUESTS ?? 4000);
const ROUNDS = Number(process.env.CONTRACTS_BENCH_ROUNDS ?? 6);
const IN_FLIGHT = 32;

// ---- 1. The gate alone -------------------------------------------------------------------------

/** The seed's input schemas, with a payload each that passes. */
const SEED = [
  {
    name: 'research.request',
    spec: { description: 'Submit a research query', input: BENCH_CONTRACT.input },
    payload: { query: 'What are the latest trends in AI?', depth: 'deep' },
  },
  {
    name: 'research.query-v2',
    spec: {
      version: '2.0.0',
      input: {
        type: 'object',
        properties: { topic: { type: 'string' }, maxSources: { type: 'integer' } },
        required: ['topic'],
      },
    },
    payload: { topic: 'agent interoperability', maxSources: 3 },
  },
  {
    name: 'research.query',
    spec: {
      version: '1.0.0',
      deprecated: true,
      deprecatedMessage: 'Use research.query-v2 for improved source control',
      supersededBy: 'research.query-v2',
      input: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
    },
    payload: { topic: 'agent interoperability' },
  },
  {
    name: 'review.findings',
    spec: {
      input: {
        type: 'object',
        properties: { findings: { type: 'string' }, sources: { type: 'array', items: { type: 'string' } } },
        required: ['findings'],
      },
    },
    payload: { findings: 'Three sources agree.', sources: ['a', 'b', 'c'] },
  },
];

const set = compileContracts('research-bot', {
  allowFreeform: true,
  contracts: Object.fromEntries(SEED.map((c) => [c.name, c.spec])),
});

/** Microseconds per gated message over ITERATIONS runs (after a warm-up of a tenth). */
function measureGate(message, expectedKind) {
  let sink = 0;
  const run = (n) => {
    for (let i = 0; i < n; i++) {
      const result = gateMessage(set, 'research-bot', message);
      if (result.kind !== expectedKind) throw new Error(`expected ${expectedKind}, got ${result.kind}`);
      sink += result.kind.length;
    }
  };
  run(Math.ceil(ITERATIONS / 10));
  const started = performance.now();
  run(ITERATIONS);
  const micros = ((performance.now() - started) * 1000) / ITERATIONS;
  if (sink === 0) throw new Error('unreachable: keeps the loop from being optimised away');
  return micros;
}

const row = (label, value, unit) => `${label.padEnd(44)} ${value.toFixed(3).padStart(9)} ${unit}`;
console.log(`Gate alone: gateMessage, ${ITERATIONS} iterations each (Node ${process.version})`);
const plain = measureGate(
  {
    messageId: 'm-plain',
    role: 'ROLE_USER',
    parts: [{ text: 'What are the latest trends in AI? Go deep.' }],
  },
  'freeform',
);
console.log(row('plain text (free-form scan)', plain, 'µs/message'));
const gateMicros = {};
for (const contract of SEED) {
  const message = createContractMessage({ name: contract.name }, contract.payload, 'bench-1');
  gateMicros[contract.name] = measureGate(message, 'contract');
  console.log(row(`${contract.name} as a data part`, gateMicros[contract.name], 'µs/message'));
}
const envelope = {
  _a2a: true,
  contract: 'research.request',
  payload: SEED[0].payload,
  correlationId: 'bench-1',
};
const textGate = measureGate(
  { messageId: 'm-text', role: 'ROLE_USER', parts: [{ text: JSON.stringify(envelope) }] },
  'contract',
);
console.log(row('research.request as a text part', textGate, 'µs/message'));

// ---- 2. Whole requests, gated against ungated ---------------------------------------------------

const executor = {
  async execute(ctx, updater) {
    const query =
      ctx.contract?.payload.query ?? ctx.message.parts.find((p) => p.data?._a2a === true)?.data.payload.query;
    updater.addArtifact([{ text: 'echo: ' + query }]);
    updater.complete();
  },
};

function benchServer(gated) {
  return createA2AServer({
    agentCard: {
      name: 'bench',
      description: 'bench agent',
      version: '1.0.0',
      supportedInterfaces: [],
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'echo', name: 'echo', description: 'echo', tags: ['echo'] }],
    },
    ...(gated
      ? {
          contracts: compileContracts('bench', {
            contracts: { [BENCH_CONTRACT.name]: { input: BENCH_CONTRACT.input } },
          }),
        }
      : {}),
    executor,
    store: createMemoryTaskStore(),
  });
}

// A request whose client never goes away.
const never = new AbortController().signal;
const query = new URLSearchParams();
const header = (name) => REQUEST_HEADERS[name];

/** One `message/send` with the contract envelope through `handle()`; checks the reply. */
async function send(server) {
  const body = rpcBody('message/send', 'contract');
  const id = Number(/"id":(\d+)/.exec(body)[1]);
  const response = await server.handle({
    method: 'POST',
    path: '/',
    query,
    header,
    text: async () => body,
    signal: never,
  });
  const problem = response.status === 200 ? checkSendReply(response.body, id) : `HTTP ${response.status}`;
  if (problem !== null) throw new Error(`bad reply: ${problem}`);
}

/** CPU µs per request (user + system) and wall µs per request over `n` requests, IN_FLIGHT at a time. */
async function measureRequests(server, n) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let done = 0; done < n; done += IN_FLIGHT) {
    const batch = [];
    for (let i = 0; i < IN_FLIGHT && done + i < n; i++) batch.push(send(server));
    await Promise.all(batch);
  }
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / n, wall: ((performance.now() - started) * 1000) / n };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const gatedServer = benchServer(true);
const ungatedServer = benchServer(false);
// Warm-up: JIT, the stores' first allocations, ajv's compiled code.
await measureRequests(gatedServer, REQUESTS / 2);
await measureRequests(ungatedServer, REQUESTS / 2);

console.log('');
console.log(
  `Whole requests through server.handle(): ${ROUNDS} rounds x ${REQUESTS} requests per side, ${IN_FLIGHT} in flight`,
);
const results = { gated: [], ungated: [] };
for (let round = 0; round < ROUNDS; round++) {
  // ABBA: neither side always runs first, so drift (GC heap growth, a neighbour's load) spreads evenly.
  const order = round % 2 === 0 ? ['gated', 'ungated'] : ['ungated', 'gated'];
  const line = {};
  for (const side of order) {
    line[side] = await measureRequests(side === 'gated' ? gatedServer : ungatedServer, REQUESTS);
    results[side].push(line[side]);
  }
  console.log(
    `round ${round + 1}: gated ${line.gated.cpu.toFixed(1)} µs CPU (${line.gated.wall.toFixed(1)} wall), ` +
      `ungated ${line.ungated.cpu.toFixed(1)} µs CPU (${line.ungated.wall.toFixed(1)} wall)`,
  );
}
const gatedCpu = median(results.gated.map((r) => r.cpu));
const ungatedCpu = median(results.ungated.map((r) => r.cpu));
const pairs = results.gated.map((g, i) => g.cpu - results.ungated[i].cpu);
console.log(row('median CPU per request, gated', gatedCpu, 'µs'));
console.log(row('median CPU per request, ungated', ungatedCpu, 'µs'));
console.log(row('median per-round difference (gated - ungated)', median(pairs), 'µs'));
console.log(
  row(
    'gate alone / gated request (research.request)',
    (100 * gateMicros['research.request']) / gatedCpu,
    '%',
  ),
);
console.log(
  row(
    'largest seed schema gate / gated request',
    (100 * Math.max(...Object.values(gateMicros))) / gatedCpu,
    '%',
  ),
);
