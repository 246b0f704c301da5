/**
 * Behaviours that need agents other than echo — driven in-process through the fetch adapter
 * (the same `(Request) => Response` entry Bun, Deno and Workers use): -32006, -32008, -32603,
 * streaming disabled, agent crashes, direct Message replies, tenants, the state machine.
 */
import { describe, expect, it } from 'vitest';
import { createA2AServer, type A2AServerOptions, type AgentExecutor } from '../../src/server/index.js';
import { createFetchHandler } from '../../src/server/adapters/fetch.js';
import { createMemoryTaskStore, type TaskStore } from '../../src/store/index.js';
import { SseDecoder } from '../../src/protocol/internal.js';
import { jsonRpcWireError, restWireError } from '../helpers/drivers.js';

const card = {
  name: 'test',
  description: 'test agent',
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
};

function app(executor: AgentExecutor, extra: Partial<A2AServerOptions> = {}) {
  const errors: unknown[] = [];
  const server = createA2AServer({
    agentCard: card,
    executor,
    onError: (e) => errors.push(e),
    baseUrl: 'http://agent.test/',
    ...extra,
  });
  const handle = createFetchHandler(server);
  const rpcText = async (
    method: string,
    params: unknown,
    headers: Record<string, string> = { 'a2a-version': '1.0' },
  ) => {
    const response = await handle(
      new Request('http://agent.test/', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      }),
    );
    return { response, text: await response.text() };
  };
  const rpc = async (method: string, params: unknown, headers?: Record<string, string>) => {
    const { response, text } = await rpcText(method, params, headers);
    return { response, json: JSON.parse(text) as Record<string, unknown> };
  };
  return { server, handle, rpc, rpcText, errors };
}

const message = (text = 'hi', extra: Record<string, unknown> = {}) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra },
});

describe('agents that misbehave', () => {
  it('an agent that produces nothing is -32006', async () => {
    const { rpc } = app({ execute: () => undefined });
    const { json } = await rpc('SendMessage', message());
    expect(jsonRpcWireError(200, json).code).toBe(-32006);
  });

  it('an agent that throws fails the task without leaking its error text', async () => {
    const { rpc, errors } = app({
      execute: (_c, u) => {
        u.startWork();
        throw new Error('secret database password is hunter2');
      },
    });
    const { json } = await rpc('SendMessage', message());
    const task = (
      json.result as { task: { status: { state: string; message: { parts: { text: string }[] } } } }
    ).task;
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(JSON.stringify(json)).not.toContain('hunter2');
    expect(String(errors[0])).toContain('hunter2');
  });

  it('illegal transitions throw inside the executor, where the bug is', async () => {
    let caught: unknown;
    const { rpc } = app({
      execute: (_c, u) => {
        u.complete();
        try {
          u.startWork();
        } catch (error) {
          caught = error;
        }
      },
    });
    const { json } = await rpc('SendMessage', message());
    expect((json.result as { task: { status: { state: string } } }).task.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
    expect(String(caught)).toMatch(/terminal task never changes/);
  });

  it('a store failure is -32603 / 500 and does not echo internals', async () => {
    const broken: TaskStore = {
      ...createMemoryTaskStore(),
      commit: () => Promise.reject(new Error('disk on fire at /var/secret')),
    };
    const { rpc, handle } = app({ execute: (_c, u) => u.complete() }, { store: broken });
    const { json } = await rpc('SendMessage', message());
    const error = jsonRpcWireError(200, json);
    expect(error.code).toBe(-32603);
    expect(JSON.stringify(json)).not.toContain('/var/secret');
    const rest = await handle(
      new Request('http://agent.test/message:send', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify(message()),
      }),
    );
    expect(rest.status).toBe(500);
    expect(restWireError(500, (await rest.json()) as Record<string, unknown>).reason).toBe('INTERNAL');
  });
});

describe('capabilities and extensions', () => {
  it('a direct Message reply comes back as a message, on send and on stream', async () => {
    const { rpc, handle } = app({ execute: (_c, u) => u.reply('just a message') });
    const { json } = await rpc('SendMessage', message());
    expect((json.result as { message: { parts: { text: string }[] } }).message.parts[0]!.text).toBe(
      'just a message',
    );
    const v03 = await rpc(
      'message/send',
      { message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'x' }] } },
      {},
    );
    expect((v03.json.result as { kind: string }).kind).toBe('message');
    const stream = await handle(
      new Request('http://agent.test/message:stream', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify(message()),
      }),
    );
    const events = new SseDecoder().push(await stream.text());
    expect(events).toHaveLength(1);
    expect(Object.keys(JSON.parse(events[0]!.data) as object)).toEqual(['message']);
  });

  it("dates a new task's submitted status no later than the statuses the agent emits after it", async () => {
    const busy = (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until);
    };
    // The agent completes synchronously and then keeps the thread a few milliseconds longer, so
    // the first commit (which records the submitted task) comes after the completion was stamped.
    const { handle } = app({
      execute: (_c, u) => {
        busy(3);
        u.complete();
        busy(3);
      },
    });
    const stream = await handle(
      new Request('http://agent.test/message:stream', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify(message()),
      }),
    );
    const events = new SseDecoder()
      .push(await stream.text())
      .map((e) => JSON.parse(e.data) as Record<string, { status: { state: string; timestamp: string } }>);
    const submitted = events[0]!.task!.status;
    const completed = events.at(-1)!.statusUpdate!.status;
    expect([submitted.state, completed.state]).toEqual(['TASK_STATE_SUBMITTED', 'TASK_STATE_COMPLETED']);
    expect(Date.parse(submitted.timestamp)).toBeLessThan(Date.parse(completed.timestamp));
  });

  it('streaming operations are -32004 when the card does not declare streaming', async () => {
    const { rpcText } = app(
      { execute: (_c, u) => u.complete() },
      { agentCard: { ...card, capabilities: { streaming: false } } },
    );
    // 1.0 streaming methods answer errors as plain JSON-RPC responses (0.3 ones in the stream; 0135).
    for (const [method, params] of [
      ['SendStreamingMessage', message()],
      ['SubscribeToTask', { id: 'x' }],
    ] as const) {
      const { response, text } = await rpcText(method, params);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(jsonRpcWireError(200, JSON.parse(text) as Record<string, unknown>).code).toBe(-32004);
    }
  });

  it('a required extension the client did not activate is -32008; activated ones are echoed', async () => {
    const uri = 'https://example.com/ext/required/v1';
    const { rpc } = app(
      { execute: (c, u) => u.reply(`active: ${c.call.activatedExtensions.join(',')}`) },
      { agentCard: { ...card, capabilities: { streaming: true, extensions: [{ uri, required: true }] } } },
    );
    const missing = await rpc('SendMessage', message());
    expect(jsonRpcWireError(200, missing.json).code).toBe(-32008);
    const ok = await rpc('SendMessage', message(), {
      'a2a-version': '1.0',
      'a2a-extensions': `${uri}, https://unknown.example/x`,
    });
    expect(ok.response.headers.get('a2a-extensions')).toBe(uri);
    expect(JSON.stringify(ok.json)).toContain(`active: ${uri}`);
  });

  it('tenants are isolated: a task of one tenant is not found under another', async () => {
    const { handle } = app({ execute: (_c, u) => u.complete() });
    const send = await handle(
      new Request('http://agent.test/acme/message:send', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify(message()),
      }),
    );
    const taskId = ((await send.json()) as { task: { id: string } }).task.id;
    const same = await handle(
      new Request(`http://agent.test/acme/tasks/${taskId}`, { headers: { 'a2a-version': '1.0' } }),
    );
    expect(same.status).toBe(200);
    const other = await handle(
      new Request(`http://agent.test/globex/tasks/${taskId}`, { headers: { 'a2a-version': '1.0' } }),
    );
    expect(other.status).toBe(404);
    const none = await handle(
      new Request(`http://agent.test/tasks/${taskId}`, { headers: { 'a2a-version': '1.0' } }),
    );
    expect(none.status).toBe(404);
    const listed = await handle(
      new Request('http://agent.test/acme/tasks', { headers: { 'a2a-version': '1.0' } }),
    );
    expect(((await listed.json()) as { totalSize: number }).totalSize).toBe(1);
  });

  it('auth: a card with security requirements answers 401 with a challenge until the authenticator accepts', async () => {
    const { handle } = app(
      { execute: (c, u) => u.reply(`hello ${c.call.user?.name}`) },
      {
        agentCard: {
          ...card,
          securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
          securityRequirements: [{ schemes: { bearer: { list: [] } } }],
        },
        authenticate: (req) =>
          req.header('authorization') === 'Bearer good' ? { name: 'alice' } : undefined,
      },
    );
    const make = (auth?: string) =>
      new Request('http://agent.test/message:send', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          ...(auth === undefined ? {} : { authorization: auth }),
        },
        body: JSON.stringify(message()),
      });
    const denied = await handle(make());
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await handle(make('Bearer bad'))).status).toBe(401);
    const allowed = await handle(make('Bearer good'));
    expect(allowed.status).toBe(200);
    expect(JSON.stringify(await allowed.json())).toContain('hello alice');
  });
});
