/**
 * The input media type check (A2A 1.0 §3.1.1, decision 0141) over real sockets: a part whose
 * `mediaType` the agent's input modes do not cover is refused with ContentTypeNotSupportedError
 * (-32005; HTTP 400 on 1.0 REST; gRPC INVALID_ARGUMENT) naming the part, on every binding, before
 * any task exists; parts without a media type, wildcards, parameters, `+json` types, the invoked
 * skill's own modes and cards with legacy mode names are admitted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Part } from '../../src/protocol/index.js';
import { createA2AServer, type AgentCardInput, type AgentExecutor } from '../../src/server/index.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { listenGrpc, type RunningGrpcServer } from '../../src/server/grpc/index.js';
import { createMemoryTaskStore } from '../../src/store/index.js';
import { jsonRpcDriver, restDriver, type Driver } from '../helpers/drivers.js';
import { grpcDriver } from '../helpers/grpc-driver.js';

const UNSUPPORTED = 'application/x-unsupported-tck-type';

const executor: AgentExecutor = { execute: (_context, updater) => updater.complete('done') };

function card(overrides: Partial<AgentCardInput> = {}): AgentCardInput {
  return {
    name: 'Modes',
    description: 'Accepts text, JSON and images; its pdf skill takes PDFs only.',
    version: '1.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain', 'application/json', 'image/*'],
    defaultOutputModes: ['text/plain'],
    skills: [
      { id: 'pdf', name: 'PDF', description: 'Reads PDFs', tags: ['pdf'], inputModes: ['application/pdf'] },
      { id: 'plain', name: 'Plain', description: 'Uses the defaults', tags: ['plain'] },
    ],
    ...overrides,
  };
}

interface Served {
  url: string;
  grpc: string;
  close(): Promise<void>;
}

async function serve(agentCard: AgentCardInput): Promise<Served> {
  const server = createA2AServer({ agentCard, executor, store: createMemoryTaskStore() });
  const grpc: RunningGrpcServer = await listenGrpc(server, { shutdownGraceMs: 200 });
  const running: RunningServer = await listen(server, { port: 0 });
  return {
    url: running.url,
    grpc: grpc.target,
    async close() {
      await grpc.close();
      await running.close();
    },
  };
}

const message = (parts: Part[], metadata?: Record<string, unknown>) => ({
  messageId: crypto.randomUUID(),
  role: 'ROLE_USER' as const,
  parts,
  ...(metadata === undefined ? {} : { metadata }),
});

let served: Served;
beforeAll(async () => {
  served = await serve(card());
});
afterAll(async () => served.close());

describe('the kit request (CORE-SEND-003) on the wire', () => {
  const body = {
    message: {
      role: 'ROLE_USER',
      parts: [{ raw: 'dGNr', mediaType: UNSUPPORTED }],
      messageId: 'tck-send-003-abcd1234-jsonrpc',
    },
  };

  it('JSON-RPC 1.0: -32005 with ErrorInfo and the part named', async () => {
    const response = await fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: body }),
    });
    expect(response.status).toBe(200);
    const { error } = (await response.json()) as {
      error: { code: number; message: string; data: Record<string, unknown>[] };
    };
    expect(error.code).toBe(-32005);
    expect(error.message).toMatch(/^Incompatible content types: /);
    expect(error.message).toContain(UNSUPPORTED);
    expect(error.message).toContain('/message/parts/0');
    expect(error.message).toContain('not supported');
    const info = error.data.find((d) => String(d['@type']).endsWith('google.rpc.ErrorInfo'));
    expect(info).toMatchObject({ reason: 'CONTENT_TYPE_NOT_SUPPORTED', domain: 'a2a-protocol.org' });
    expect(info!.metadata).toMatchObject({ mediaType: UNSUPPORTED });
    const bad = error.data.find((d) => String(d['@type']).endsWith('google.rpc.BadRequest'));
    expect(bad).toMatchObject({ fieldViolations: [{ field: '/message/parts/0/mediaType' }] });
  });

  it('HTTP+JSON 1.0: 400 INVALID_ARGUMENT with ErrorInfo', async () => {
    const response = await fetch(`${served.url}message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as {
      error: { code: number; status: string; message: string; details: Record<string, unknown>[] };
    };
    expect(error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(error.message).toMatch(/^Incompatible content types: .*application\/x-unsupported-tck-type/);
    expect(error.details).toContainEqual(
      expect.objectContaining({ reason: 'CONTENT_TYPE_NOT_SUPPORTED', domain: 'a2a-protocol.org' }),
    );
  });

  it('gRPC 1.0 and 0.3: INVALID_ARGUMENT with reason CONTENT_TYPE_NOT_SUPPORTED', async () => {
    for (const version of ['1.0', '0.3'] as const) {
      const driver = grpcDriver(served.grpc, version);
      try {
        const outcome = await driver.send(message([{ raw: 'dGNr', mediaType: UNSUPPORTED }]));
        expect(outcome.ok, version).toBe(false);
        if (outcome.ok) continue;
        expect(outcome.error.grpcStatus).toBe(3); // INVALID_ARGUMENT
        expect(outcome.error).toMatchObject({ code: -32005, reason: 'CONTENT_TYPE_NOT_SUPPORTED' });
        expect(outcome.error.message).toMatch(/^Incompatible content types: /);
      } finally {
        driver.close?.();
      }
    }
  });

  it('JSON-RPC 0.3 (a file part with mimeType): -32005', async () => {
    const response = await fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: crypto.randomUUID(),
            role: 'user',
            parts: [
              { kind: 'text', text: 'see the file' },
              { kind: 'file', file: { bytes: 'dGNr', mimeType: UNSUPPORTED, name: 'x.bin' } },
            ],
          },
        },
      }),
    });
    const { error } = (await response.json()) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32005);
    expect(error.message).toContain('/message/parts/1');
  });
});

describe('what every binding refuses and admits', () => {
  const drivers = (): Driver[] => [
    jsonRpcDriver(served.url, '1.0'),
    restDriver(served.url, '1.0'),
    jsonRpcDriver(served.url, '0.3'),
    restDriver(served.url, '0.3'),
    grpcDriver(served.grpc, '1.0'),
  ];

  async function each(check: (driver: Driver) => Promise<void>): Promise<void> {
    for (const driver of drivers()) {
      try {
        await check(driver);
      } finally {
        driver.close?.();
      }
    }
  }

  it('admits parts without a media type, wildcards, parameters, case and +json types', async () => {
    await each(async (driver) => {
      const outcome = await driver.send(
        message([
          { text: 'hello' },
          { data: { a: 1 } },
          { raw: 'dGNr', mediaType: 'text/plain; charset=utf-8' },
          { url: 'https://example.com/a.png', mediaType: 'IMAGE/PNG' },
          { data: { b: 2 }, mediaType: 'application/vnd.example.order+json' },
        ]),
      );
      expect(outcome.ok, `${driver.name}: ${outcome.ok ? '' : outcome.error.message}`).toBe(true);
    });
  });

  it('refuses a streamed send too, before any task exists', async () => {
    await each(async (driver) => {
      const outcome = await driver.stream(
        message([{ url: 'https://example.com/a.mp4', mediaType: 'video/mp4' }]),
      );
      expect(outcome.items, driver.name).toEqual([]);
      expect(outcome.error?.code, driver.name).toBe(-32005);
    });
    const listed = await jsonRpcDriver(served.url, '1.0').listTasks({});
    expect(
      listed.ok &&
        listed.value.tasks.some((t) => t.history?.[0]?.parts.some((p) => p.mediaType === 'video/mp4')),
    ).toBe(false);
  });

  it("holds a message naming a skill to that skill's modes, and one naming none to all of them", async () => {
    const rest = restDriver(served.url, '1.0');
    const pdf: Part = { url: 'https://example.com/a.pdf', mediaType: 'application/pdf' };
    expect((await rest.send(message([pdf]))).ok).toBe(true);
    expect((await rest.send(message([pdf], { skillId: 'pdf' }))).ok).toBe(true);
    const plainFile: Part = { raw: 'dGNr', mediaType: 'text/plain' };
    const refused = await rest.send(message([plainFile], { skillId: 'pdf' }));
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.httpStatus).toBe(400);
      expect(refused.error.message).toContain('for skill pdf');
    }
    // A skill without modes of its own takes the defaults, which do not include PDF.
    const plain = await rest.send(message([pdf], { skillId: 'plain' }));
    expect(plain.ok).toBe(false);
  });
});

describe('cards whose modes say nothing checkable', () => {
  it('admits every media type for an empty list or a legacy mode name', async () => {
    for (const defaultInputModes of [[], ['text']]) {
      const other = await serve(card({ defaultInputModes, skills: [] }));
      try {
        const outcome = await restDriver(other.url, '1.0').send(
          message([{ raw: 'dGNr', mediaType: UNSUPPORTED }]),
        );
        expect(outcome.ok, JSON.stringify(defaultInputModes)).toBe(true);
      } finally {
        await other.close();
      }
    }
  });

  it("leaves Concord's contract envelopes to the contract gate, whatever the card lists", async () => {
    const other = await serve(card({ defaultInputModes: ['text/plain'], skills: [] }));
    try {
      const envelope = { _a2a: true, contract: 'research_request', payload: { topic: 'x' } };
      const outcome = await restDriver(other.url, '1.0').send(
        message([{ data: envelope, mediaType: 'application/vnd.concord.contract+json' }]),
      );
      expect(outcome.ok).toBe(true);
    } finally {
      await other.close();
    }
  });
});
