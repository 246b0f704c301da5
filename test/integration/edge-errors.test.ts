// The HTTP edges' error answers, byte for byte over real sockets (decision 0135): the 0.3 REST
// body the official 0.3 clients decode, JSON-RPC requests without `id`, errors of streaming
// methods inside the stream, and framing errors that an extension's `mapError` never restates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCard } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { A2AClient, A2AClientError, CardCache } from '../../src/client/index.js';
import { A2AError, defineErrorTable, TableError } from '../../src/protocol/index.js';
import type { AgentCardInput } from '../../src/server/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echoAgent from '../../examples/echo/agent.mjs';

let echo: EchoServer;
let mapped: EchoServer;
beforeAll(async () => {
  echo = await startEcho();
  // A profile whose table restates every refusal as its own 422, as AAP's does.
  const table = defineErrorTable('profile.example.org', {
    SCHEMA_VALIDATION_FAILED: {
      code: -32602,
      httpStatus: 422,
      grpcStatus: 'INVALID_ARGUMENT',
      meaning: 'InvalidParamsError',
      defaultMessage: 'bad',
    },
  });
  mapped = await startEcho({
    mapError: (error) =>
      ['InvalidParamsError', 'InvalidRequestError', 'JSONParseError', 'MethodNotFoundError'].includes(
        error.type,
      )
        ? new TableError(table, 'SCHEMA_VALIDATION_FAILED', error.message)
        : error,
    // A refusal of the agent's own, after the request was read.
    admitMessage: (request) => {
      if (request.message.parts[0]?.text === 'refuse') throw new A2AError('InvalidParamsError', 'refused');
    },
  });
});
afterAll(async () => {
  await echo.close();
  await mapped.close();
});

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

const rpc = (method: string, params: unknown, extra: Record<string, unknown> = { id: 7 }) =>
  JSON.stringify({ jsonrpc: '2.0', method, params, ...extra });

/** Reads an SSE body into its events' `data` JSON. */
async function sseEvents(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.includes('data:'))
    .map((block) => JSON.parse(block.replace(/^[\s\S]*?data: ?/, '')) as unknown);
}

async function sdkClient(binding: 'JSONRPC' | 'HTTP+JSON', version: '1.0' | '0.3'): Promise<Client> {
  const legacyCompat = { enabled: true };
  const card: AgentCard = await new DefaultAgentCardResolver({ legacyCompat }).resolve(echo.url);
  const only = card.supportedInterfaces.filter(
    (i) => i.protocolBinding === binding && i.protocolVersion === version,
  );
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ legacyCompat }), new RestTransportFactory({ legacyCompat })],
  });
  return factory.createFromAgentCard({ ...card, supportedInterfaces: only });
}

describe('0.3 REST errors', () => {
  it('are the bare {code, message, data} the 0.3 clients decode, with the 1.0.1 status', async () => {
    const response = await fetch(`${echo.url}v1/tasks/no-such-task`, { headers: { 'a2a-version': '0.3' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      code: -32001,
      message: expect.stringMatching(/no-such-task/) as unknown,
      data: { reason: 'TASK_NOT_FOUND', metadata: { taskId: 'no-such-task' } },
    });
  });

  it('a parse failure keeps its field violations in data', async () => {
    const response = await post(`${echo.url}v1/message:send`, '{"message": {', { 'a2a-version': '0.3' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['code', 'message', 'data']);
    expect(body.code).toBe(-32700);
    expect(body.data).toMatchObject({ reason: 'PARSE_ERROR', violations: [{ field: '' }] });
  });

  it('1.0 REST errors keep the google.rpc.Status body', async () => {
    const response = await fetch(`${echo.url}tasks/no-such-task`, { headers: { 'a2a-version': '1.0' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: {
        code: 404,
        status: 'NOT_FOUND',
        message: expect.any(String) as unknown,
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'TASK_NOT_FOUND',
            domain: 'a2a-protocol.org',
            metadata: { taskId: 'no-such-task' },
          },
        ],
      },
    });
  });

  it("the SDK's 0.3 REST client gets TaskNotFoundError, on a unary call and a subscription", async () => {
    const client = await sdkClient('HTTP+JSON', '0.3');
    expect(client.protocolVersion).toBe('0.3');
    await expect(client.getTask({ tenant: '', id: 'no-such-task' })).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
    const events = client.resubscribeTask({ tenant: '', id: 'no-such-task' });
    await expect(events.next()).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it("Concord's own client still reads code, reason and metadata", async () => {
    const client = await A2AClient.connect(echo.url, {
      prefer: { bindings: ['HTTP+JSON'], versions: ['0.3'] },
      cardCache: new CardCache(),
      allowPrivateNetworks: true,
    });
    const error = await client.getTask({ id: 'no-such-task' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AClientError);
    expect(error).toMatchObject({
      code: -32001,
      httpStatus: 404,
      reason: 'TASK_NOT_FOUND',
      metadata: { taskId: 'no-such-task' },
    });
  });
});

describe('JSON-RPC requests without id', () => {
  for (const [version, send] of [
    ['1.0', 'SendMessage'],
    ['0.3', 'message/send'],
  ] as const) {
    it(`${version}: are judged by method and params first, and answered with id null`, async () => {
      const headers = { 'a2a-version': version };
      const unknown = await post(echo.url, rpc('nope', {}, {}), headers);
      expect(unknown.status).toBe(200);
      expect(await unknown.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32601 } });
      const noParams = await post(echo.url, rpc(send, {}, {}), headers);
      expect(await noParams.json()).toMatchObject({ id: null, error: { code: -32602 } });
      const message =
        version === '1.0'
          ? { messageId: 'm-noid', role: 'ROLE_USER', parts: [{ text: 'hi' }] }
          : { kind: 'message', messageId: 'm-noid-3', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
      const sent = (await (await post(echo.url, rpc(send, { message }, {}), headers)).json()) as Record<
        string,
        unknown
      >;
      expect(sent.id).toBeNull();
      expect(sent).toHaveProperty('result');
    });
  }

  it('an id of the wrong type is still -32600', async () => {
    const response = await post(echo.url, rpc('SendMessage', {}, { id: { x: 1 } }), { 'a2a-version': '1.0' });
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe('errors of streaming JSON-RPC methods', () => {
  const CASES = [
    ['1.0', 'SendStreamingMessage', {}, -32602],
    ['1.0', 'SubscribeToTask', { id: 'no-such-task' }, -32001],
    ['0.3', 'message/stream', {}, -32602],
    ['0.3', 'tasks/resubscribe', { id: 'no-such-task' }, -32001],
  ] as const;
  for (const [version, method, params, code] of CASES) {
    if (version === '0.3') {
      it(`${version} ${method}: an SSE stream whose only event is the error`, async () => {
        const response = await post(echo.url, rpc(method, params), { 'a2a-version': version });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
        const events = await sseEvents(response);
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code } });
      });
    } else {
      // The 1.0 kit reads any event stream as a success (STREAM-SUB-004): plain JSON (decision 0135).
      it(`${version} ${method}: a plain JSON-RPC error, no stream`, async () => {
        const response = await post(echo.url, rpc(method, params), { 'a2a-version': version });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/json');
        expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code } });
      });
    }
  }

  it('an unknown method or a broken envelope is plain JSON: the method is not known to stream', async () => {
    const broken = await post(echo.url, '{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage",', {
      'a2a-version': '1.0',
    });
    expect(broken.headers.get('content-type')).toBe('application/json');
    expect(await broken.json()).toMatchObject({ id: null, error: { code: -32700 } });
  });

  for (const version of ['1.0', '0.3'] as const) {
    it(`the SDK's ${version} JSON-RPC client reads the error's code`, async () => {
      // SDK 1.3 reads the 0.3 error event and the 1.0 plain answer alike (the 0.3.x SDK and
      // a2a-python's httpx-sse refuse a 0.3 answer that is not SSE at all).
      const client = await sdkClient('JSONRPC', version);
      const events = client.resubscribeTask({ tenant: '', id: 'no-such-task' });
      await expect(events.next()).rejects.toThrow(/-32001|not found/i);
    });
  }

  it('an HTTP-layer refusal of a streaming method keeps its status and challenge, as plain JSON', async () => {
    const secured = await startEcho({
      agentCard: {
        ...(echoAgent.agentCard as AgentCardInput),
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'bearer' } } },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      },
      authenticate: (request) =>
        request.header('authorization') === 'Bearer ok' ? { name: 'a' } : undefined,
    });
    try {
      const response = await post(secured.url, rpc('SubscribeToTask', { id: 'no-such-task' }), {
        'a2a-version': '1.0',
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="a2a"');
      expect(await response.json()).toMatchObject({ id: 7, error: { code: -32010 } });
    } finally {
      await secured.close();
    }
  });

  it('HTTP+JSON streaming routes answer errors with their HTTP status, before any stream', async () => {
    const subscribe = await fetch(`${echo.url}tasks/no-such-task:subscribe`, {
      headers: { 'a2a-version': '1.0' },
    });
    expect(subscribe.status).toBe(404);
    expect(subscribe.headers.get('content-type')).toBe('application/json');
    const stream = await post(`${echo.url}v1/message:stream`, '{}', { 'a2a-version': '0.3' });
    expect(stream.status).toBe(400);
    expect(await stream.json()).toMatchObject({ code: -32602, data: { reason: 'INVALID_PARAMS' } });
  });
});

describe('framing errors are never restated by mapError', () => {
  const headers = { 'a2a-version': '1.0' };
  it('JSON-RPC: malformed JSON -32700, no method -32600, unknown method -32601, undecodable params -32602', async () => {
    const cases: [string, number][] = [
      ['{"jsonrpc":"2.0","id":1,', -32700],
      ['{"jsonrpc":"2.0","id":1,"params":{}}', -32600],
      [rpc('Nope', {}), -32601],
      [rpc('SendMessage', { message: { role: 'ROLE_USER', parts: [] } }), -32602],
    ];
    for (const [body, code] of cases) {
      const json = (await (await post(mapped.url, body, headers)).json()) as {
        error: { code: number; data: { domain?: string }[] };
      };
      expect(json.error.code, body).toBe(code);
      expect(json.error.data[0]!.domain, body).not.toBe('profile.example.org');
    }
  });

  it('HTTP+JSON: malformed JSON and undecodable params are 400 in A2A terms, not the table’s 422', async () => {
    for (const body of ['{"message": {', '{"message": {"role": "ROLE_USER"}}']) {
      const response = await post(`${mapped.url}message:send`, body, headers);
      expect(response.status, body).toBe(400);
      const json = (await response.json()) as { error: { details: { domain: string }[] } };
      expect(json.error.details[0]!.domain).not.toBe('profile.example.org');
    }
  });

  it('errors raised once the request was read are still restated, on both bindings', async () => {
    const message = { messageId: 'm-refuse', role: 'ROLE_USER', parts: [{ text: 'refuse' }] };
    const rest = await post(`${mapped.url}message:send`, JSON.stringify({ message }), headers);
    expect(rest.status).toBe(422);
    const json = (await rest.json()) as { error: { details: { reason: string; domain: string }[] } };
    expect(json.error.details[0]).toMatchObject({
      reason: 'SCHEMA_VALIDATION_FAILED',
      domain: 'profile.example.org',
    });
    const viaRpc = await post(
      mapped.url,
      rpc('SendMessage', { message: { ...message, messageId: 'm-r2' } }),
      headers,
    );
    const answer = (await viaRpc.json()) as { error: { code: number; data: { reason: string }[] } };
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.data[0]!.reason).toBe('SCHEMA_VALIDATION_FAILED');
  });
});
