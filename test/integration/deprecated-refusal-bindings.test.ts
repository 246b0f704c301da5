/**
 * A message to a deprecated contract whose payload fails validation is refused, and the refusal
 * carries the contract's deprecation warnings (seed "Deprecation behavior": "the validation result
 * includes deprecation warnings alongside the normal valid / errors fields") the same way on every
 * binding and version: JSON-RPC, HTTP+JSON and gRPC, 0.3 and 1.0 (decision 0150). The
 * host serves the seed's "Versioning & deprecation" contracts; the public client reads the answers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, A2AClientError, CardCache, type ClientBinding } from '../../src/client/internal.js';
import { createContractMessage } from '../../src/contracts/index.js';
import { startHost, type RunningHost } from '../../src/host/index.js';
import type { ProtocolVersion } from '../../src/protocol/index.js';

/** OpenClaw PR #19293 a2a-contracts.md "Versioning & deprecation", in the seed's config shape. */
const CONFIG = `{
  agents: {
    list: [
      {
        id: "researcher",
        description: "Answers research queries",
        exposed: true,
        handler: "./researcher.mjs",
        a2a: {
          contracts: {
            // New version
            "research.query-v2": {
              version: "2.0.0",
              description: "Submit a research query (v2 — adds maxSources)",
              input: {
                type: "object",
                properties: {
                  topic: { type: "string" },
                  maxSources: { type: "integer" },
                },
                required: ["topic"],
              },
            },

            // Old version — still works but emits warnings
            "research.query": {
              version: "1.0.0",
              deprecated: true,
              deprecatedMessage: "Use research.query-v2 for improved source control",
              supersededBy: "research.query-v2",
              description: "Submit a research query",
              input: {
                type: "object",
                properties: { topic: { type: "string" } },
                required: ["topic"],
              },
            },
          },
        },
      },
    ],
  },
}
`;

const HANDLER = `export const executor = {
  execute(context, updater) {
    updater.addArtifact([{ data: { topic: context.contract?.payload?.topic ?? null } }]);
    updater.complete();
  },
};
`;

const WARNINGS = ['Use research.query-v2 for improved source control', 'Use "research.query-v2" instead.'];

const WIRES: { binding: ClientBinding; version: ProtocolVersion }[] = [
  { binding: 'JSONRPC', version: '0.3' },
  { binding: 'JSONRPC', version: '1.0' },
  { binding: 'HTTP+JSON', version: '0.3' },
  { binding: 'HTTP+JSON', version: '1.0' },
  { binding: 'GRPC', version: '0.3' },
  { binding: 'GRPC', version: '1.0' },
];

let dir: string;
let host: RunningHost;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-deprecated-refusal-'));
  writeFileSync(join(dir, 'concord.config.json5'), CONFIG);
  writeFileSync(join(dir, 'researcher.mjs'), HANDLER);
  host = await startHost(dir, { port: 0, grpcPort: 0, store: 'memory' });
});

afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function clientOver(binding: ClientBinding, version: ProtocolVersion): Promise<A2AClient> {
  const client = await A2AClient.connect(`${host.url}agents/researcher/`, {
    allowPrivateNetworks: true,
    cardCache: new CardCache(),
    prefer: { bindings: [binding], versions: [version] },
    retry: { retries: 0 },
  });
  expect(client.transport).toMatchObject({ protocolBinding: binding, protocolVersion: version });
  return client;
}

describe('a refused message to a deprecated contract', () => {
  it.each(WIRES)('carries the deprecation warnings over $binding $version', async ({ binding, version }) => {
    const client = await clientOver(binding, version);
    try {
      const refused = await client
        .sendMessage({ message: createContractMessage({ name: 'research.query' }, { depth: 'deep' }) })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(A2AClientError);
      const error = refused as A2AClientError;
      expect(error.type).toBe('InvalidParamsError');
      expect(error.message).toBe('Contract "research.query" input validation failed: /topic: is required');
      expect(error.violations).toEqual([
        { field: '/message/parts/0/data/payload/topic', description: 'required: is required' },
      ]);
      // ErrorInfo metadata: the one place every binding and version carries (decision 0150).
      expect(error.metadata).toEqual({
        agentId: 'researcher',
        contract: 'research.query',
        warnings: WARNINGS.join('\n'),
      });
    } finally {
      client.close();
    }
  });

  it('is still a deprecated contract that delivers a valid payload, with the same warnings', async () => {
    const client = await clientOver('GRPC', '1.0');
    try {
      const result = await client.sendMessage({
        message: createContractMessage({ name: 'research.query' }, { topic: 'agents' }),
      });
      const task = 'task' in result ? result.task : undefined;
      expect(task?.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task?.metadata?.['concord/contract']).toMatchObject({
        name: 'research.query',
        warnings: WARNINGS,
      });
    } finally {
      client.close();
    }
  });
});
