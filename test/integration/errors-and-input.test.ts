/**
 * Every error code with its HTTP status, and malformed input (bad JSON, wrong types, unknown enum
 * values, missing fields, oversized bodies) answered with a precise error and no crash. Raw HTTP,
 * so the envelopes themselves are checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRpcWireError, restWireError } from '../helpers/drivers.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

let server: EchoServer;
beforeAll(async () => {
  server = await startEcho({ maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await server.close();
});

async function rpcRaw(
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const V1 = { 'a2a-version': '1.0' };
// A fresh messageId per message, as clients should (servers may key retries on it, decision 0133).
const msg1 = (extra: Record<string, unknown> = {}) => ({
  messageId: `m1-${crypto.randomUUID()}`,
  role: 'ROLE_USER',
  parts: [{ text: 'hi' }],
  ...extra,
});
const msg03 = (extra: Record<string, unknown> = {}) => ({
  kind: 'message',
  messageId: `m1-${crypto.randomUUID()}`,
  role: 'user',
  parts: [{ kind: 'text', text: 'hi' }],
  ...extra,
});

describe('JSON-RPC envelope errors', () => {
  it('bad JSON is -32700 with id null', async () => {
    const { status, json } = await rpcRaw('{"jsonrpc":"2.0","id":1,"method":', V1);
    expect(status).toBe(200);
    expect(json.id).toBeNull();
    const error = jsonRpcWireError(status, json);
    expect(error.code).toBe(-32700);
    expect(error.reason).toBe('PARSE_ERROR');
  });

  it('a batch array is -32600', async () => {
    const { json } = await rpcRaw(
      JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }]),
      V1,
    );
    expect(jsonRpcWireError(200, json).code).toBe(-32600);
  });

  it('a request without jsonrpc 2.0 is -32600 and still echoes the id', async () => {
    const { json } = await rpcRaw(JSON.stringify({ id: 'abc', method: 'GetTask', params: { id: 'x' } }), V1);
    expect(json.id).toBe('abc');
    const error = jsonRpcWireError(200, json);
    expect(error.code).toBe(-32600);
    expect(error.violations[0]!.field).toBe('/jsonrpc');
  });

  it('an unknown method is -32601, and a method of the other version says so', async () => {
    const unknown = await rpcRaw(
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tasks/explode', params: {} }),
    );
    expect(unknown.json.id).toBe(7);
    expect(jsonRpcWireError(200, unknown.json).code).toBe(-32601);
    const other = await rpcRaw(
      JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'message/send', params: { message: msg03() } }),
      V1,
    );
    const error = jsonRpcWireError(200, other.json);
    expect(error.code).toBe(-32601);
    expect(error.message).toMatch(/0\.3 method name/);
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])(
    'a method named like an Object member (%s) is -32601, not an internal error',
    async (method) => {
      for (const headers of [{}, V1]) {
        const { json } = await rpcRaw(JSON.stringify({ jsonrpc: '2.0', id: 9, method, params: {} }), headers);
        expect(jsonRpcWireError(200, json).code).toBe(-32601);
      }
    },
  );
});

describe('invalid params name the failing path', () => {
  const cases: [string, Record<string, string>, unknown, string][] = [
    ['wrong type (1.0)', V1, { message: msg1({ parts: 'hi' }) }, '/params/message/parts'],
    ['unknown enum value (1.0)', V1, { message: msg1({ role: 'ROLE_ROBOT' }) }, '/params/message/role'],
    ['0.3 enum in a 1.0 request', V1, { message: msg1({ role: 'user' }) }, '/params/message/role'],
    [
      'missing required field (1.0)',
      V1,
      { message: { role: 'ROLE_USER', parts: [{ text: 'x' }] } },
      '/params/message/messageId',
    ],
    ['empty parts (1.0)', V1, { message: msg1({ parts: [] }) }, '/params/message/parts'],
    [
      'part with two contents (1.0)',
      V1,
      { message: msg1({ parts: [{ text: 'a', url: 'https://x' }] }) },
      '/params/message/parts/0',
    ],
    ['unknown enum value (0.3)', {}, { message: msg03({ role: 'robot' }) }, '/params/message/role'],
    [
      'unknown part kind (0.3)',
      {},
      { message: msg03({ parts: [{ kind: 'video', text: 'x' }] }) },
      '/params/message/parts/0/kind',
    ],
    ['missing message (0.3)', {}, {}, '/params/message'],
  ];
  for (const [name, headers, params, field] of cases) {
    it(name, async () => {
      const method = 'a2a-version' in headers ? 'SendMessage' : 'message/send';
      const { status, json } = await rpcRaw(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        headers,
      );
      const error = jsonRpcWireError(status, json);
      expect(error.code).toBe(-32602);
      expect(error.violations[0]!.field.startsWith(field)).toBe(true);
      expect(error.message).toContain(field.replace('/params', ''));
    });
  }

  it('REST bodies and query parameters too', async () => {
    const bad = await fetch(`${server.url}message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...V1 },
      body: JSON.stringify({ message: msg1({ role: 7.5 }) }),
    });
    expect(bad.status).toBe(400);
    const error = restWireError(400, (await bad.json()) as Record<string, unknown>);
    expect(error.reason).toBe('INVALID_PARAMS');
    expect(error.violations[0]!.field).toBe('/message/role');
    for (const [query, field] of [
      ['historyLength=abc', '/historyLength'],
      ['pageSize=0', '/pageSize'],
      ['pageSize=101', '/pageSize'],
      ['status=TASK_STATE_BOGUS', '/status'],
      ['includeArtifacts=yes', '/includeArtifacts'],
      ['statusTimestampAfter=yesterday', '/statusTimestampAfter'],
      ['pageToken=%%%garbage', '/pageToken'],
    ] as const) {
      const response = await fetch(`${server.url}tasks?${query}`, { headers: V1 });
      expect(response.status, query).toBe(400);
      const e = restWireError(400, (await response.json()) as Record<string, unknown>);
      expect(e.violations[0]?.field, query).toBe(field);
    }
  });

  it('REST bad JSON is 400 PARSE_ERROR', async () => {
    const response = await fetch(`${server.url}message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...V1 },
      body: '{nope',
    });
    expect(response.status).toBe(400);
    expect(restWireError(400, (await response.json()) as Record<string, unknown>).reason).toBe('PARSE_ERROR');
  });
});

describe('limits, versions and media types', () => {
  it('an oversized body is 413 on both bindings, and the server keeps serving', async () => {
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: msg1({ parts: [{ text: 'x'.repeat(100_000) }] }) },
    });
    const rpc = await rpcRaw(huge, V1);
    expect(rpc.status).toBe(413);
    expect(jsonRpcWireError(413, rpc.json).reason).toBe('PAYLOAD_TOO_LARGE');
    const rest = await fetch(`${server.url}message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...V1 },
      body: huge,
    });
    expect(rest.status).toBe(413);
    const after = await rpcRaw(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'SendMessage', params: { message: msg1() } }),
      V1,
    );
    expect(after.json.result).toBeDefined();
  });

  it('an unsupported A2A-Version is -32009 (400 on REST)', async () => {
    const rpc = await rpcRaw(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
      { 'a2a-version': '2.0' },
    );
    expect(jsonRpcWireError(200, rpc.json).code).toBe(-32009);
    const rest = await fetch(`${server.url}tasks/x`, { headers: { 'a2a-version': '9.1' } });
    expect(rest.status).toBe(400);
    expect(restWireError(400, (await rest.json()) as Record<string, unknown>).reason).toBe(
      'VERSION_NOT_SUPPORTED',
    );
    const query = await fetch(`${server.url}tasks/x?A2A-Version=1.0`);
    expect(query.status).toBe(404); // the query parameter selects 1.0, where the task is simply unknown
  });

  it('a body declared as something other than JSON is ContentTypeNotSupported (-32005; REST 400)', async () => {
    // What the 1.0 kit expects (JSONRPC-SSE-002, HTTP_JSON-STATUS): -32005, and 400 in the v1.0.1 table.
    const body = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'GetTask', params: { id: 'x' } });
    const rpc = await fetch(server.url, {
      method: 'POST',
      headers: { ...V1, 'content-type': 'text/plain' },
      body,
    });
    expect(rpc.status).toBe(200);
    const error = jsonRpcWireError(200, await rpc.json());
    expect(error.code).toBe(-32005);
    expect(error.message).toMatch(/^Incompatible content types: Content-Type text\/plain/);
    const rest = await fetch(`${server.url}message:send`, {
      method: 'POST',
      headers: { ...V1, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(rest.status).toBe(400);
    expect(restWireError(400, (await rest.json()) as Record<string, unknown>).reason).toBe(
      'CONTENT_TYPE_NOT_SUPPORTED',
    );
  });

  it('a JSON-RPC call with no A2A-Version and a 1.0 method name is answered in 1.0', async () => {
    // §3.6 makes a header-less call 0.3, but no 0.3 method is spelled so: older 1.0 kit clients omit it.
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'GetTask', params: { id: 'no-such-task' } }),
    });
    const error = jsonRpcWireError(200, await response.json());
    expect(error.code).toBe(-32001);
    expect(error.reason).toBe('TASK_NOT_FOUND');
    const old = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tasks/get', params: { id: 'no-such-task' } }),
    });
    expect(jsonRpcWireError(200, await old.json()).code).toBe(-32001);
  });

  it('push notification operations are -32003 and the card says pushNotifications: false', async () => {
    const rpc = await rpcRaw(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'CreateTaskPushNotificationConfig',
        params: { taskId: 't', url: 'https://example.com/hook' },
      }),
      V1,
    );
    expect(jsonRpcWireError(200, rpc.json).code).toBe(-32003);
    // The 0.3 kit's error-code checks look for the spec's default words in the message.
    expect(jsonRpcWireError(200, rpc.json).message).toMatch(/^Push Notification is not supported/);
    const rest = await fetch(`${server.url}tasks/t/pushNotificationConfigs`, { headers: V1 });
    expect(rest.status).toBe(400);
    expect(restWireError(400, (await rest.json()) as Record<string, unknown>).reason).toBe(
      'PUSH_NOTIFICATION_NOT_SUPPORTED',
    );
    const card = (await (
      await fetch(`${server.url}.well-known/agent-card.json`, { headers: V1 })
    ).json()) as { capabilities: Record<string, unknown> };
    expect(card.capabilities.pushNotifications).toBe(false);
  });

  it('the extended card: -32004 in 1.0 when not declared, -32007 in 0.3', async () => {
    const v1 = await rpcRaw(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard' }), V1);
    expect(jsonRpcWireError(200, v1.json).code).toBe(-32004);
    const v03 = await rpcRaw(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'agent/getAuthenticatedExtendedCard' }),
    );
    expect(jsonRpcWireError(200, v03.json).code).toBe(-32007);
    const rest = await fetch(`${server.url}v1/card`);
    expect(rest.status).toBe(400);
  });

  it('acceptedOutputModes the agent cannot produce are -32005', async () => {
    const { json } = await rpcRaw(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: msg1(), configuration: { acceptedOutputModes: ['image/png'] } },
      }),
      V1,
    );
    expect(jsonRpcWireError(200, json).code).toBe(-32005);
    expect(jsonRpcWireError(200, json).message).toMatch(/^Incompatible content types: .* not supported/);
    const rest = await fetch(`${server.url}message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...V1 },
      body: JSON.stringify({ message: msg1(), configuration: { acceptedOutputModes: ['video/*'] } }),
    });
    expect(rest.status).toBe(400);
    expect(restWireError(400, (await rest.json()) as Record<string, unknown>).reason).toBe(
      'CONTENT_TYPE_NOT_SUPPORTED',
    );
  });

  it('an unknown REST route is 404 METHOD_NOT_FOUND', async () => {
    const response = await fetch(`${server.url}message:explode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...V1 },
      body: '{}',
    });
    expect(response.status).toBe(404);
    expect(restWireError(404, (await response.json()) as Record<string, unknown>).reason).toBe(
      'METHOD_NOT_FOUND',
    );
  });
});
