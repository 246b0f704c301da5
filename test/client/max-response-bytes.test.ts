/**
 * `maxResponseBytes` (issue 27): the client's bound on an answer read into memory. A real server's
 * GetTask answer for a task with a 100 KiB artifact is refused by a client limited to 64 KiB, with
 * a local error naming the limit, and read whole by one whose limit was raised, over each binding
 * (HTTP bodies and the gRPC channel's receive limit alike). The CLI passes the same bound with
 * `--max-response-bytes`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, A2ALocalError, CardCache, type TransportPreference } from '../../src/client/index.js';
import type { Task } from '../../src/protocol/index.js';
import type { AgentExecutor } from '../../src/server/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { concord } from '../cli/cli-process.js';

const ARTIFACT = 'x'.repeat(100 * 1024);
const LIMIT = 64 * 1024;

const executor: AgentExecutor = {
  execute(_ctx, updater) {
    updater.addArtifact([{ text: ARTIFACT }], { artifactId: 'big' });
    updater.complete();
  },
};

let server: EchoServer;
let taskId: string;
beforeAll(async () => {
  server = await startEcho({ executor, grpc: true });
  // Made by a client with the default limit (16 MiB), which the answer fits.
  const maker = await A2AClient.connect(server.url, {
    allowPrivateNetworks: true,
    cardCache: new CardCache(),
  });
  const sent = await maker.sendMessage({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'big' }] },
  });
  taskId = (sent as { task: Task }).task.id;
  maker.close();
});
afterAll(async () => {
  await server.close();
});

function connect(prefer: TransportPreference, maxResponseBytes: number): Promise<A2AClient> {
  return A2AClient.connect(server.url, {
    allowPrivateNetworks: true,
    cardCache: new CardCache(),
    prefer,
    retry: { retries: 0 },
    maxResponseBytes,
  });
}

describe.each([
  ['JSON-RPC', { bindings: ['JSONRPC'], versions: ['1.0'] }],
  ['HTTP+JSON', { bindings: ['HTTP+JSON'], versions: ['1.0'] }],
  ['JSON-RPC 0.3', { bindings: ['JSONRPC'], versions: ['0.3'] }],
  ['gRPC', { bindings: ['GRPC'], versions: ['1.0'] }],
] as const)('GetTask over %s', (_name, prefer) => {
  it('is refused past a small maxResponseBytes, naming the limit, and read once it is raised', async () => {
    const small = await connect(prefer, LIMIT);
    try {
      const refused = await small.getTask({ id: taskId }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(A2ALocalError);
      expect((refused as A2ALocalError).kind).toBe('BAD_RESPONSE');
      expect((refused as A2ALocalError).message).toContain(
        `answered more than ${LIMIT} bytes (the client's maxResponseBytes)`,
      );
    } finally {
      small.close();
    }

    const raised = await connect(prefer, 1024 * 1024);
    try {
      const task = await raised.getTask({ id: taskId });
      expect(task.artifacts?.[0]?.parts[0]?.text).toBe(ARTIFACT);
    } finally {
      raised.close();
    }
  });
});

it('refuses a maxResponseBytes that is not a positive integer before any request', async () => {
  for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 31]) {
    await expect(connect({}, bad)).rejects.toThrow(RangeError);
  }
});

describe('concord get --max-response-bytes', () => {
  it('fails past the limit with exit 1 and the flag to raise it, and prints the task once raised', async () => {
    const refused = await concord([
      'get',
      server.url,
      taskId,
      '--json',
      '--max-response-bytes',
      String(LIMIT),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `answered more than ${LIMIT} bytes (raise the limit with --max-response-bytes)`,
    );

    const read = await concord(['get', server.url, taskId, '--json', '--max-response-bytes', '1048576']);
    expect(read.stderr).toBe('');
    expect(read.code).toBe(0);
    const task = JSON.parse(read.stdout) as Task;
    expect(task.artifacts?.[0]?.parts[0]?.text).toBe(ARTIFACT);
  });

  it('is a usage error (exit 2) for a value that is not a whole number of bytes', async () => {
    const run = await concord(['get', server.url, taskId, '--max-response-bytes', '64k']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--max-response-bytes: expected a whole number of bytes');
  });
});
