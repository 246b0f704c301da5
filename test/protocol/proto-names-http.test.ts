/**
 * Decision 0136, spelling, over real sockets: what the SDK kits send in proto field names
 * (snake_case) is read like the json names on every binding and version: the 0.3 REST send body
 * the SDK kits write, 1.0 JSON-RPC `task_id` and `history_length`, REST query parameters; Struct content
 * keeps its keys, and a field sent under both names is refused naming the proto-name pointer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEcho();
});
afterAll(async () => {
  await echo.close();
});

type Json = Record<string, unknown>;

async function call(
  method: string,
  path: string,
  version: '0.3' | '1.0',
  body?: unknown,
): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${echo.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(version === '1.0' ? { 'a2a-version': '1.0' } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

async function rpc10(method: string, params: unknown): Promise<Json> {
  const { json } = await call('POST', '', '1.0', { jsonrpc: '2.0', id: 1, method, params });
  return json;
}

describe('proto field names on the wire', () => {
  it('0.3 REST: the SDK kit message:send body (message_id) is read', async () => {
    const { status, json } = await call('POST', 'v1/message:send', '0.3', {
      message: { message_id: 'm1', role: 'ROLE_USER', content: [{ text: 'hi' }] },
    });
    expect(status).toBe(200);
    const task = json.task as { status: { state: string }; history?: { messageId: string }[] };
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.history?.[0]?.messageId).toBe('m1');
    // Concord writes json names only.
    expect(JSON.stringify(json)).not.toMatch(/"[a-z]+_[a-z_]+":/);
  });

  it('1.0 JSON-RPC: task_id continues a task, history_length bounds GetTask', async () => {
    const asked = await rpc10('SendMessage', {
      message: { message_id: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'ask' }] },
    });
    const task = (asked.result as { task: { id: string; status: { state: string } } }).task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const answered = await rpc10('SendMessage', {
      message: {
        message_id: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text: 'red' }],
        task_id: task.id,
      },
      configuration: { return_immediately: false },
    });
    const done = (answered.result as { task: { id: string; status: { state: string } } }).task;
    expect(done.id).toBe(task.id);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');

    const full = await rpc10('GetTask', { id: task.id });
    expect(((full.result as Json).history as unknown[]).length).toBeGreaterThan(1);
    const bounded = await rpc10('GetTask', { id: task.id, history_length: 1 });
    expect((bounded.result as Json).history).toHaveLength(1);
  });

  it('1.0 REST: query parameters in proto names (history_length, page_size, context_id)', async () => {
    const contextId = `ctx-${crypto.randomUUID()}`;
    for (const text of ['one', 'two']) {
      const sent = await call('POST', 'message:send', '1.0', {
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], contextId },
      });
      expect(sent.status).toBe(200);
    }
    const page = await call('GET', `tasks?context_id=${contextId}&page_size=1&history_length=0`, '1.0');
    expect(page.status).toBe(200);
    const tasks = page.json.tasks as { contextId: string; history?: unknown[] }[];
    expect(tasks).toHaveLength(1);
    expect(tasks[0]?.contextId).toBe(contextId);
    expect(tasks[0]?.history ?? []).toEqual([]);
    expect(page.json.totalSize).toBe(2);
  });

  it('Struct content keeps its keys: metadata and data parts come back as sent', async () => {
    const data = { snake_key: 1, camelKey: { inner_key: [1, 2] } };
    const metadata = { trace_id: 'x', nested_map: { some_key: true } };
    const { status, json } = await call('POST', 'v1/message:send', '0.3', {
      message: {
        message_id: crypto.randomUUID(),
        role: 'ROLE_USER',
        content: [{ data: { data } }],
        metadata,
      },
    });
    expect(status).toBe(200);
    const task = json.task as {
      artifacts: { parts: { data: { data: unknown } }[] }[];
      history: { metadata: unknown }[];
    };
    expect(task.artifacts[0]?.parts[0]?.data.data).toEqual(data);
    expect(task.history[0]?.metadata).toEqual(metadata);
  });

  it('a field under both names is refused with the proto-name pointer, on JSON-RPC and REST', async () => {
    const rpcAnswer = await rpc10('GetTask', { id: 'x', historyLength: 1, history_length: 2 });
    const error = rpcAnswer.error as { code: number; message: string };
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('/params/history_length');

    const rest = await call('GET', 'tasks?pageSize=1&page_size=2', '1.0');
    expect(rest.status).toBe(400);
    expect(JSON.stringify(rest.json)).toContain('/page_size');
  });
});
