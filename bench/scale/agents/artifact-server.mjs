// The server of the artifacts part (bench/scale/artifacts.mjs): Concord on node:http (SSE) and
// gRPC (GRPC_PORT) with an agent that streams one artifact of the size a message asks for.
//
// A message `artifact <total bytes> <chunk bytes>` makes a task whose agent sends the artifact
// as `artifactUpdate` events, the first creating it and the rest with `append: true` (A2A 1.0
// §4.2.2), the last with `lastChunk: true`, each chunk one file part with its bytes as base64
// `raw` (§4.1.6): binary output (a generated file, an archive, an image) is what a real agent sends
// in megabytes, and `raw` is how a Part carries bytes; text would need the same base64 inside it.
// It waits for each chunk to be durable before making the next, as an agent producing the bytes
// at the pace the store takes them would; then the task completes.
//
// SCALE_ARTIFACT_STORE picks the store (sqlite, the default; memory; postgres with
// SCALE_POSTGRES_URL). Imports the built dist/.

import { createA2AServer } from '../../../dist/server/index.js';
import { disablePretenuring, limitHeapGrowth } from '../../../dist/cli/serve/process-tuning.js';
import { listen } from '../../../dist/server/adapters/node.js';
import { listenGrpc } from '../../../dist/server/grpc/index.js';
import { createMemoryTaskStore } from '../../../dist/store/index.js';
import { openSqliteTaskStore } from '../../../dist/store/sqlite/index.js';
import { chunkBytes, chunking } from './artifact-bytes.mjs';
import { agentCard, openScaleStore, watchCommits } from './scale-store.mjs';

disablePretenuring();
limitHeapGrowth();

const opened = await openScaleStore(process.env.SCALE_ARTIFACT_STORE ?? 'sqlite', {
  createMemoryTaskStore,
  openSqliteTaskStore,
});
const { store, commits } = watchCommits(opened.store);

const server = createA2AServer({
  agentCard: agentCard('artifact', 'an agent that streams one large artifact'),
  executor: {
    async execute(ctx, updater) {
      const words = (ctx.message.parts.find((p) => p.text !== undefined)?.text ?? '').split(' ');
      const total = Number(words[1]);
      const size = Number(words[2]);
      const { count, length } = chunking(total, size);
      updater.startWork();
      // The task's version is the sequence number of its last event: the Task event that creates
      // it, then one per update (task-store.ts).
      let version = 2;
      for (let i = 0; i < count; i++) {
        const part = {
          raw: chunkBytes(i, length(i)).toString('base64'),
          mediaType: 'application/octet-stream',
        };
        if (i === 0) part.filename = 'artifact.bin';
        updater.addArtifact([part], {
          artifactId: 'artifact',
          name: 'artifact.bin',
          append: i > 0,
          lastChunk: i === count - 1,
        });
        // Durable before the next chunk is made: the agent is paced by the store.
        await commits.durable(ctx.taskId, ++version);
      }
      updater.complete();
    },
  },
  store,
});

const grpc = await listenGrpc(server, { port: Number(process.env.GRPC_PORT), host: '127.0.0.1' });
const running = await listen(server, { port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write(`READY ${JSON.stringify({ path: '/', grpc: grpc.target })}\n`);

process.on('SIGTERM', async () => {
  await grpc.close();
  await running.close();
  await store.close?.();
  await opened.cleanup();
  process.exit(0);
});
