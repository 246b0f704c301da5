// Concord serving the benchmark's echo agent through its node:http fast-path adapter.
//
// BENCH_STORE picks the task store: 'memory' (default), 'sqlite' (a fresh database file in a
// temporary directory, removed on exit), or 'postgres' (a fresh schema in the database of
// BENCH_POSTGRES_URL, dropped on exit), so the table shows what durability and sharing cost.
// BENCH_CONTRACTS=off serves the same agent without its contract (the control of the contract
// runs: no gate, so a contract envelope is an ordinary data part delivered as is).
// BENCH_SQLITE_PATH / BENCH_POSTGRES_SCHEMA open an existing file or schema instead (the scale
// benchmark's filled stores, bench/scale/stores.mjs), left in place on exit.
// BENCH_GRPC_PORT also serves the gRPC binding on that port (bench/grpc-run.mjs). Imports the
// built package (dist/): `npm run bench` builds first. The gRPC and PostgreSQL modules are loaded
// only when asked for, as `concord serve` loads them: loaded, they add about 10 MiB of RSS.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createA2AServer } from '../../dist/server/index.js';
import { disablePretenuring, limitHeapGrowth } from '../../dist/cli/serve/process-tuning.js';
import { listen } from '../../dist/server/adapters/node.js';
import { createMemoryTaskStore } from '../../dist/store/index.js';
import { openSqliteTaskStore } from '../../dist/store/sqlite/index.js';
import { compileContracts } from '../../dist/contracts/index.js';
import { BENCH_CONTRACT } from '../lib/payload.mjs';

// What `concord serve` does at start, and what the node adapter's documentation asks of a serving
// process (docs/performance.md, 'No allocation-site pretenuring' and 'Heap growth limit').
// BENCH_PRETENURING=on and BENCH_HEAP_GROWTH=v8 keep V8's defaults, for A/B runs.
if (process.env.BENCH_PRETENURING !== 'on') disablePretenuring();
if (process.env.BENCH_HEAP_GROWTH !== 'v8') limitHeapGrowth();

const kind = process.env.BENCH_STORE ?? 'memory';
const gated = process.env.BENCH_CONTRACTS !== 'off';
const existingFile = process.env.BENCH_SQLITE_PATH;
const existingSchema = process.env.BENCH_POSTGRES_SCHEMA;
const dataDir = kind === 'sqlite' && !existingFile ? mkdtempSync(join(tmpdir(), 'concord-bench-')) : null;
const pgSchema = kind === 'postgres' && !existingSchema ? `concord_bench_${process.pid}` : null;
const store =
  kind === 'sqlite'
    ? openSqliteTaskStore({ path: existingFile ?? join(dataDir, 'tasks.sqlite') })
    : kind === 'postgres'
      ? await (
          await import('../../dist/store/postgres/index.js')
        ).openPostgresStore({
          connectionString: process.env.BENCH_POSTGRES_URL,
          schema: existingSchema ?? pgSchema,
        })
      : createMemoryTaskStore();

const server = createA2AServer({
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
  // An agent with a contract, as a typed agent would be: plain text passes the gate's quick scan,
  // contract envelopes are validated against the seed's research.request schema. Ungated, the
  // executor finds the query in the data part itself, so both answer the same.
  ...(gated
    ? {
        contracts: compileContracts('bench', {
          contracts: { [BENCH_CONTRACT.name]: { input: BENCH_CONTRACT.input } },
        }),
      }
    : {}),
  // The same trivial agent as the other servers: one artifact "echo: <text>", then complete.
  executor: {
    async execute(ctx, updater) {
      const text =
        ctx.contract?.payload.query ??
        ctx.message.parts.find((p) => p.data?._a2a === true)?.data.payload.query ??
        ctx.message.parts.find((p) => p.text !== undefined)?.text ??
        '';
      updater.addArtifact([{ text: 'echo: ' + text }]);
      updater.complete();
    },
  },
  store,
});

const grpc =
  process.env.BENCH_GRPC_PORT === undefined
    ? undefined
    : await (
        await import('../../dist/server/grpc/index.js')
      ).listenGrpc(server, { port: Number(process.env.BENCH_GRPC_PORT), host: '127.0.0.1' });
const running = await listen(server, { port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write(`READY ${JSON.stringify({ path: '/', ...(grpc ? { grpc: grpc.target } : {}) })}\n`);

process.on('SIGTERM', async () => {
  await grpc?.close();
  await running.close();
  // Not every store needs closing; sqlite does, to release the file before it is removed.
  await store.close?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (pgSchema) await dropSchema(pgSchema);
  process.exit(0);
});

/** Drops the run's schema, so repeated runs start from an empty database. */
async function dropSchema(schema) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: process.env.BENCH_POSTGRES_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}
