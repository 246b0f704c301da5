// The server's extension interface (ServerExtension, decision 0054) through HTTP on a real socket:
// the card declares the extension, activation reaches `admit` and is echoed, `admit` refuses
// before anything exists, `accepted` runs after every check and before the agent, its documents are
// served beside the server's own, and the agent reads the extension's service from its context.
import { afterEach, describe, expect, it } from 'vitest';
import { A2AError, type Message } from '../../src/protocol/index.js';
import {
  createA2AServer,
  type AcceptedSend,
  type ExtensionSend,
  type ServerExtension,
} from '../../src/server/index.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { createMemoryTaskStore } from '../../src/store/index.js';

const URI = 'https://example.com/ext/stamp/v1';
let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

interface Log {
  admitted: ExtensionSend[];
  accepted: AcceptedSend[];
  executed: { text: string; service: unknown; stamp: unknown }[];
}

async function start(extension: Partial<ServerExtension>, cardExtensions = false) {
  const log: Log = { admitted: [], accepted: [], executed: [] };
  const store = createMemoryTaskStore();
  const stamps = new Map<string, string>();
  const full: ServerExtension = {
    declaration: { uri: URI, description: 'stamps messages', required: false, params: { v: 1 } },
    admit: (send) => {
      log.admitted.push(send);
    },
    accepted: (send) => {
      log.accepted.push(send);
      stamps.set(send.taskId, `stamped ${send.message.messageId}`);
    },
    service: { name: 'stamp service' },
    ...extension,
  };
  const server = createA2AServer({
    agentCard: {
      name: 'ext',
      description: 'an agent with an extension',
      version: '1.0.0',
      capabilities: {
        streaming: true,
        ...(cardExtensions ? { extensions: [{ uri: URI, description: 'from the card' }] } : {}),
      },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    },
    store,
    executor: {
      execute(context, updater) {
        log.executed.push({
          text: context.message.parts[0]?.text ?? '',
          service: context.extensions.get(URI),
          stamp: stamps.get(context.taskId),
        });
        updater.complete('done');
      },
    },
    extensions: [full],
    documents: { '/.well-known/shared': () => ({ from: 'server' }) },
  });
  running = await listen(server, { port: 0 });
  return { url: running.url, log, store };
}

function message(text: string): Message {
  return { messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ text }] };
}

async function send(url: string, text: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: message(text) },
    }),
  });
  return { response, body: (await response.json()) as Record<string, { code?: number; message?: string }> };
}

describe('ServerExtension', () => {
  it('declares the extension on the card of both versions; the card wins for its own URI', async () => {
    const { url } = await start({});
    for (const version of ['1.0', '0.3']) {
      const card = (await (
        await fetch(`${url}.well-known/agent-card.json`, { headers: { 'a2a-version': version } })
      ).json()) as { capabilities: { extensions?: { uri: string; params?: unknown }[] } };
      // Both versions write `required: false` as declared; the 1.0 signing payload leaves it out
      // as ProtoJSON does (A2A 1.0 §8.4.1, decision 0149).
      expect(card.capabilities.extensions, version).toEqual([
        { uri: URI, description: 'stamps messages', required: false, params: { v: 1 } },
      ]);
    }
    await running!.close();
    const own = await start({}, true);
    const card = (await (await fetch(`${own.url}.well-known/agent-card.json`)).json()) as {
      capabilities: { extensions: { description: string }[] };
    };
    expect(card.capabilities.extensions.map((e) => e.description)).toEqual(['from the card']);
  });

  it('tells admit whether the call activated it, and echoes the activation in the response', async () => {
    const { url, log } = await start({});
    const plain = await send(url, 'plain');
    expect(plain.response.headers.get('a2a-extensions')).toBeNull();
    const active = await send(url, 'active', { 'a2a-extensions': `https://other.example/x, ${URI}` });
    expect(active.response.headers.get('a2a-extensions')).toBe(URI);
    expect(log.admitted.map((s) => [s.request.message.parts[0]?.text, s.activated])).toEqual([
      ['plain', false],
      ['active', true],
    ]);
    expect(log.admitted[1]!.call.activatedExtensions).toEqual([URI]);
    expect(log.admitted[0]!.task).toBeUndefined();
  });

  it('refuses in admit before anything exists: no task, no accepted, no agent', async () => {
    const { url, log, store } = await start({
      admit: (send) => {
        if (send.request.message.parts[0]?.text === 'refuse') {
          throw new A2AError('InvalidParamsError', 'stamp: refused', {
            violations: [{ field: '/message/metadata', description: 'no stamp' }],
          });
        }
      },
    });
    const refused = await send(url, 'refuse');
    expect(refused.body.error).toMatchObject({ code: -32602, message: 'stamp: refused' });
    expect(log.accepted).toEqual([]);
    expect(log.executed).toEqual([]);
    expect((await store.list({ tenant: '', owner: '', pageSize: 10 })).totalSize).toBe(0);
  });

  it('calls accepted with the ids the task got, before the agent runs, and offers the service', async () => {
    const { url, log } = await start({});
    const { body } = await send(url, 'hello');
    const task = body.result as unknown as { task: { id: string; contextId: string } };
    expect(log.accepted).toHaveLength(1);
    expect(log.accepted[0]).toMatchObject({
      taskId: task.task.id,
      contextId: task.task.contextId,
      message: { messageId: 'm-hello', taskId: task.task.id, contextId: task.task.contextId },
    });
    expect(log.executed).toEqual([
      { text: 'hello', service: { name: 'stamp service' }, stamp: 'stamped m-hello' },
    ]);
  });

  it('refuses the send when accepted throws, and the agent never runs', async () => {
    const { url, log, store } = await start({
      accepted: () => {
        throw new A2AError('InternalError', 'the ledger is offline');
      },
    });
    const { body } = await send(url, 'hello');
    expect(body.error).toMatchObject({ code: -32603 });
    expect(log.executed).toEqual([]);
    expect((await store.list({ tenant: '', owner: '', pageSize: 10 })).totalSize).toBe(0);
  });

  it("serves its documents beside the server's own (which win), and leaves other paths to A2A", async () => {
    const { url } = await start({
      documents: {
        '/.well-known/stamp': ({ card, baseUrl }) => ({ agent: card.name, baseUrl }),
        '/.well-known/shared': () => ({ from: 'extension' }),
        '/.well-known/broken': () => {
          throw new Error('boom');
        },
      },
    });
    const doc = await fetch(`${url}.well-known/stamp`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('etag')).not.toBeNull();
    expect(await doc.json()).toEqual({ agent: 'ext', baseUrl: url });
    expect(await (await fetch(`${url}.well-known/shared`)).json()).toEqual({ from: 'server' });
    const broken = await fetch(`${url}.well-known/broken`);
    expect(broken.status).toBe(500);
    expect(JSON.stringify(await broken.json())).not.toContain('boom');
    expect((await fetch(`${url}.well-known/agent-card.json`)).status).toBe(200);
    expect((await send(url, 'still served')).body.result).toBeDefined();
    expect((await fetch(`${url}nothing-here`)).status).toBe(404);
  });
});
