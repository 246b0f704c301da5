// Contracts micro-benchmark (`npx tsc -p tsconfig.build.json && node bench/contracts-micro.mjs`):
// what the delivery gate costs per message. It gates the seed's research.request invocation
// (seeds/a2a-contracts.md "Declaring contracts") carried as a data part and as a text part, and a
// plain text message, through the built package, and prints microseconds per message for each and
// the extra cost of a contract message over plain text.
//
// Environment: CONTRACTS_BENCH_ITERATIONS (default 200000).

import { performance } from 'node:perf_hooks';
import { compileContracts, createContractMessage, gateMessage } from '../dist/contracts/index.js';

const ITERATIONS = Number(process.env.CONTRACTS_BENCH_ITERATIONS ?? 200_000);

const set = compileContracts('research-bot', {
  allowFreeform: true,
  contracts: {
    'research.request': {
      description: 'Submit a research query',
      input: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Research query' },
          depth: { type: 'string', enum: ['shallow', 'deep'] },
        },
        required: ['query'],
      },
      output: {
        type: 'object',
        properties: {
          findings: { type: 'string' },
          sources: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
});

const payload = { query: 'What are the latest trends in AI?', depth: 'deep' };
const dataMessage = createContractMessage({ name: 'research.request' }, payload, {
  correlationId: 'bench-1',
  messageId: 'm-data',
});
const textMessage = {
  messageId: 'm-text',
  role: 'ROLE_USER',
  parts: [
    { text: JSON.stringify({ _a2a: true, contract: 'research.request', payload, correlationId: 'bench-1' }) },
  ],
};
const plainMessage = {
  messageId: 'm-plain',
  role: 'ROLE_USER',
  parts: [{ text: 'What are the latest trends in AI? Please go deep.' }],
};

/** Microseconds per gated message over ITERATIONS runs (after a warm-up of a tenth). */
function measure(message, expectedKind) {
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

const plain = measure(plainMessage, 'freeform');
const data = measure(dataMessage, 'contract');
const text = measure(textMessage, 'contract');

const row = (label, micros) => `${label.padEnd(34)} ${micros.toFixed(3).padStart(8)} µs/message`;
console.log(`gateMessage, ${ITERATIONS} iterations each (Node ${process.version})`);
console.log(row('plain text (freeform)', plain));
console.log(row('research.request as a data part', data));
console.log(row('research.request as a text part', text));
console.log(row('difference, data part - plain', data - plain));
console.log(row('difference, text part - plain', text - plain));
