/**
 * Contract-aware send (decision 0032) against Concord's host on a real
 * socket, on every binding and version: `contracts()` from the card and from `/contracts`, a valid
 * typed send with its typed reply, local refusals that never reach the agent (same message and
 * field violations as the agent's own gate), deprecation warnings, and the reply checked against
 * the output schema.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  A2AClient,
  A2AClientError,
  CardCache,
  ContractRefusedError,
  ContractReplyError,
  type ClientBinding,
  type ClientInterceptor,
} from '../../src/client/internal.js';
import { createContractMessage, defineContract } from '../../src/contracts/index.js';
import { startHost, type RunningHost } from '../../src/host/index.js';
import type { ProtocolVersion } from '../../src/protocol/index.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/contracts');

const researchRequest = defineContract({
  name: 'research.request',
  input: {
    type: 'object',
    properties: { query: { type: 'string' }, depth: { type: 'string', enum: ['shallow', 'deep'] } },
    required: ['query'],
  },
  output: {
    type: 'object',
    properties: { findings: { type: 'string' }, sources: { type: 'array', items: { type: 'string' } } },
    required: ['findings'],
  },
} as const);

const INTERFACES: [ClientBinding, ProtocolVersion][] = [
  ['JSONRPC', '1.0'],
  ['HTTP+JSON', '1.0'],
  ['JSONRPC', '0.3'],
  ['HTTP+JSON', '0.3'],
];

let host: RunningHost;
beforeAll(async () => {
  host = await startHost(FIXTURE, { port: 0, store: 'memory' });
});
afterAll(async () => {
  await host?.close();
});

/** Counts the sendMessage requests that really left the client. */
function sendCounter(): { interceptor: ClientInterceptor; count: () => number } {
  let sent = 0;
  return {
    interceptor: {
      before(call) {
        if (call.purpose === 'sendMessage') sent++;
      },
    },
    count: () => sent,
  };
}

async function connect(
  agent: string,
  binding: ClientBinding,
  version: ProtocolVersion,
  interceptors: ClientInterceptor[] = [],
): Promise<A2AClient> {
  return A2AClient.connect(`${host.url}agents/${agent}/`, {
    allowPrivateNetworks: true,
    cardCache: new CardCache(),
    prefer: { bindings: [binding], versions: [version] },
    interceptors,
  });
}

describe.each(INTERFACES)('sendContract over %s %s', (binding, version) => {
  let client: A2AClient;
  const counter = sendCounter();
  beforeAll(async () => {
    client = await connect('researcher', binding, version, [counter.interceptor]);
    expect(client.transport).toMatchObject({ protocolBinding: binding, protocolVersion: version });
  });
  afterAll(() => client.close());

  it('reads the contracts from the card and from the /contracts URL', async () => {
    const fromCard = await client.contracts();
    expect(fromCard.source).toBe('card');
    expect(fromCard.published).toBe(true);
    expect(fromCard.allowFreeform).toBe(false);
    expect(fromCard.names()).toEqual(['research.request', 'research.quick', 'research.sloppy']);
    expect(fromCard.get('research.quick')).toMatchObject({
      deprecated: true,
      supersededBy: 'research.request',
    });
    // The server's output policy is its own business: it is not published.
    expect(fromCard.get('research.sloppy')).not.toHaveProperty('outputPolicy');
    const fromUrl = await client.contracts({ source: 'url' });
    expect(fromUrl.source).toBe('url');
    expect(fromUrl.agentName).toBe('researcher');
    expect(fromUrl.list).toEqual(fromCard.list);
  });

  it('sends a valid payload and returns the typed, checked reply', async () => {
    const before = counter.count();
    const result = await client.sendContract(
      researchRequest,
      { query: 'AI trends', depth: 'deep' },
      { correlationId: 'c-7' },
    );
    expect(counter.count()).toBe(before + 1);
    expect(result.state).toBe('TASK_STATE_COMPLETED');
    expect(result.validatedBy).toBe('published');
    expect(result.reply?.findings).toBe('AI trends:deep:c-7');
    expect(result.reply?.sources).toEqual(['unit-test']);
    expect(result.warnings).toEqual([]);
    expect(result.task?.metadata?.['concord/contract']).toEqual({
      name: 'research.request',
      correlationId: 'c-7',
    });
  });

  it('refuses an invalid payload locally, exactly as the agent would, without sending it', async () => {
    const before = counter.count();
    const refusal = await client
      .sendContract('research.request', { depth: 'bottomless', extra: 1 })
      .catch((e: unknown) => e);
    expect(counter.count()).toBe(before);
    expect(refusal).toBeInstanceOf(ContractRefusedError);
    const local = refusal as ContractRefusedError;
    expect(local).not.toBeInstanceOf(A2AClientError);
    expect(local.type).toBe('InvalidParamsError');
    expect(local.contract).toBe('research.request');
    expect(local.errors.map((e) => [e.path, e.keyword])).toEqual([
      ['/query', 'required'],
      ['/depth', 'enum'],
    ]);
    expect(local.violations?.map((v) => v.field)).toEqual([
      '/message/parts/0/data/payload/query',
      '/message/parts/0/data/payload/depth',
    ]);
    // The agent's own gate, asked over the wire with the same message, says the same thing.
    const message = createContractMessage({ name: 'research.request' }, { depth: 'bottomless', extra: 1 });
    const remote = await client.sendMessage({ message }).catch((e: unknown) => e);
    expect(remote).toBeInstanceOf(A2AClientError);
    expect((remote as A2AClientError).message).toBe(local.message);
    expect((remote as A2AClientError).violations).toEqual(local.violations);
  });

  it('refuses an unknown contract locally with the available contracts', async () => {
    const before = counter.count();
    const refusal = (await client
      .sendContract('research.summarise', {})
      .catch((e: unknown) => e)) as ContractRefusedError;
    expect(counter.count()).toBe(before);
    expect(refusal).toBeInstanceOf(ContractRefusedError);
    expect(refusal.message).toBe(
      'Agent "researcher" does not expose contract "research.summarise". Available: research.request, research.quick, research.sloppy',
    );
    expect(refusal.availableContracts).toEqual(['research.request', 'research.quick', 'research.sloppy']);
  });

  it('carries deprecation warnings on a direct reply', async () => {
    const result = await client.sendContract('research.quick', { query: 'now' });
    expect(result.message?.role).toBe('ROLE_AGENT');
    expect(result.state).toBeUndefined();
    expect(result.reply).toEqual({ findings: 'quick: now' });
    expect(result.warnings).toEqual(['This contract is deprecated.', 'Use "research.request" instead.']);
    expect(result.message?.metadata?.['concord/contract']).toMatchObject({
      name: 'research.quick',
      version: '1.0.0',
      warnings: ['This contract is deprecated.', 'Use "research.request" instead.'],
    });
  });

  it('fails a reply that breaks the output schema, or returns it flagged under warn', async () => {
    const error = (await client
      .sendContract('research.sloppy', {})
      .catch((e: unknown) => e)) as ContractReplyError;
    expect(error).toBeInstanceOf(ContractReplyError);
    expect(error.type).toBe('InvalidAgentResponseError');
    expect(error.violations).toEqual([
      {
        field: '/task/artifacts/0/parts/0/data/findings',
        description: 'type: must be string, got integer 42',
      },
    ]);
    const warned = await client.sendContract('research.sloppy', {}, { outputPolicy: 'warn' });
    expect(warned.state).toBe('TASK_STATE_COMPLETED');
    expect(warned.reply).toEqual({ findings: 42 });
    expect(warned.outputViolations).toEqual([
      {
        at: '/task/artifacts/0/parts/0/data',
        errors: [{ path: '/findings', keyword: 'type', message: 'must be string, got integer 42' }],
      },
    ]);
    // The server let it through under its warn policy, flagged with the same violation.
    expect(warned.task?.artifacts?.[0]?.metadata?.['concord/contract/outputViolations']).toEqual([
      { path: '/parts/0/findings', keyword: 'type', message: 'must be string, got integer 42' },
    ]);
  });
});

describe('sendContract to an agent that publishes no contracts', () => {
  it("checks a typed contract's own schemas, and sends a named one unchecked", async () => {
    const counter = sendCounter();
    const client = await connect('plain', 'JSONRPC', '1.0', [counter.interceptor]);
    try {
      const contracts = await client.contracts();
      expect(contracts.published).toBe(false);
      // The host still answers /contracts for it: an empty list.
      const document = await client.contracts({ source: 'url' });
      expect([document.source, document.names(), document.allowFreeform]).toEqual(['url', [], true]);

      const refusal = (await client
        .sendContract(researchRequest, { query: 3 } as never)
        .catch((e: unknown) => e)) as ContractRefusedError;
      expect(refusal).toBeInstanceOf(ContractRefusedError);
      expect(refusal.violations?.map((v) => v.field)).toEqual(['/message/parts/0/data/payload/query']);
      expect(counter.count()).toBe(0);

      // Delivered best-effort (seed: unknown contract, agent without contracts); the echo is no
      // research reply, so the typed contract's output schema refuses it.
      const error = (await client
        .sendContract(researchRequest, { query: 'x' })
        .catch((e: unknown) => e)) as ContractReplyError;
      expect(error).toBeInstanceOf(ContractReplyError);
      expect(counter.count()).toBe(1);

      const unchecked = await client.sendContract('anything', { not: 'validated' });
      expect(unchecked.validatedBy).toBe('none');
      expect(unchecked.reply).toMatchObject({ echo: { _a2a: true, contract: 'anything' } });
    } finally {
      client.close();
    }
  });
});

describe('withContracts', () => {
  it('sends by name with the types of the given contracts', async () => {
    const client = await connect('researcher', 'HTTP+JSON', '1.0');
    try {
      const typed = client.withContracts(researchRequest);
      const result = await typed.sendContract('research.request', { query: 'by name' });
      expect(result.reply?.findings).toBe('by name:-:-');
      await expect(typed.sendContract('nope' as 'research.request', { query: 'x' })).rejects.toThrow(
        'withContracts: no contract "nope" (given: research.request)',
      );
      expect(() => client.withContracts(researchRequest, researchRequest)).toThrow('given twice');
    } finally {
      client.close();
    }
  });
});
