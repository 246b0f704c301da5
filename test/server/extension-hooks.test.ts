// The server's general hooks for extensions, over a real socket: an extension's error table
// (its own domain, reason, codes, statuses, an extra typed detail and headers) on both bindings,
// `mapError`, executors refusing with an A2AError, `defaultVersion`, extra documents, card
// decoration, path prefixes and the peer address in the call context.
import { afterEach, describe, expect, it } from 'vitest';
import { A2AError, defineErrorTable, TableError } from '../../src/protocol/index.js';
import type { AgentExecutor } from '../../src/server/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

let server: EchoServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TABLE = defineErrorTable('example.org', {
  THING_GONE: {
    code: -32000,
    httpStatus: 409,
    grpcStatus: 'FAILED_PRECONDITION',
    meaning: 'InvalidParamsError',
    defaultMessage: 'The thing is gone',
  },
  SLOW_DOWN: {
    code: -32002,
    httpStatus: 429,
    grpcStatus: 'RESOURCE_EXHAUSTED',
    meaning: 'InternalError',
    defaultMessage: 'Too many requests',
    httpLayer: true,
  },
});

/** An executor that refuses "gone" and "slow", echoes the rest, and records what the call saw. */
function refusing(seen: { remote?: string | undefined }[]): AgentExecutor {
  return {
    execute(context, updater) {
      seen.push({ remote: context.call.remoteAddress });
      const text = context.message.parts[0]?.text ?? '';
      if (text === 'gone') {
        throw new TableError(TABLE, 'THING_GONE', 'thing 7 is gone', {
          metadata: { thing: '7' },
          details: [{ '@type': 'type.example.org/thing.error', code: 'THING_GONE' }],
        });
      }
      if (text === 'slow') {
        throw new TableError(TABLE, 'SLOW_DOWN', undefined, { headers: { 'retry-after': '3' } });
      }
      updater.reply(`ok ${text}`);
    },
  };
}

function send(
  url: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const restBody = (text: string) => ({
  message: { messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ text }] },
});
const rpcBody = (text: string) => ({ jsonrpc: '2.0', id: 9, method: 'SendMessage', params: restBody(text) });

describe('extension error tables', () => {
  it('maps a TableError from its own row on REST and JSON-RPC, with its detail and headers', async () => {
    const seen: { remote?: string | undefined }[] = [];
    server = await startEcho({ executor: refusing(seen) });
    const rest = await send(server.url, 'message:send', restBody('gone'), { 'a2a-version': '1.0' });
    expect(rest.status).toBe(409);
    const restError = ((await rest.json()) as { error: Record<string, unknown> }).error;
    expect(restError.code).toBe(409);
    expect(restError.status).toBe('FAILED_PRECONDITION');
    expect(restError.message).toBe('thing 7 is gone');
    expect(restError.details).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'THING_GONE',
        domain: 'example.org',
        metadata: { thing: '7' },
      },
      { '@type': 'type.example.org/thing.error', code: 'THING_GONE' },
    ]);

    const rpc = await send(server.url, '', rpcBody('gone'), { 'a2a-version': '1.0' });
    expect(rpc.status).toBe(200);
    const rpcError = ((await rpc.json()) as { error: Record<string, unknown> }).error;
    expect(rpcError.code).toBe(-32000);
    expect(rpcError.data).toEqual(restError.details);

    // An HTTP-layer row keeps its status on JSON-RPC too, and its headers reach the response.
    const slow = await send(server.url, '', rpcBody('slow'), { 'a2a-version': '1.0' });
    expect(slow.status).toBe(429);
    expect(slow.headers.get('retry-after')).toBe('3');
    expect(((await slow.json()) as { error: { code: number } }).error.code).toBe(-32002);

    // The refusal created no task; the executor saw the peer address.
    expect((await server.store.list({ tenant: '', owner: '', pageSize: 1 })).totalSize).toBe(0);
    expect(seen[0]?.remote).toMatch(/127\.0\.0\.1/);
  });

  it('restates core errors through mapError on both bindings, once each', async () => {
    const mapped: string[] = [];
    server = await startEcho({
      mapError: (error) => {
        mapped.push(error.type);
        if (error.type !== 'InvalidParamsError') return error;
        return new TableError(TABLE, 'THING_GONE', `restated: ${error.message}`);
      },
      // Refused once the request was read: the agent's work, which the mapper speaks for.
      admitMessage: () => {
        throw new A2AError('InvalidParamsError', 'not this one');
      },
    });
    const rest = await send(server.url, 'message:send', restBody('x'), { 'a2a-version': '1.0' });
    expect(rest.status).toBe(409);
    const body = (await rest.json()) as { error: { message: string; details: { reason: string }[] } };
    expect(body.error.message).toMatch(/^restated: /);
    expect(body.error.details[0]!.reason).toBe('THING_GONE');
    const rpc = await send(server.url, '', rpcBody('y'), { 'a2a-version': '1.0' });
    expect(((await rpc.json()) as { error: { code: number } }).error.code).toBe(-32000);
    // What the binding refused reading the request stays A2A's own, unseen by the mapper (decision 0135).
    const bad = { message: { role: 'ROLE_USER', parts: [{ text: 'x' }] } }; // no messageId
    const unread = await send(server.url, 'message:send', bad, { 'a2a-version': '1.0' });
    expect(unread.status).toBe(400);
    const unknown = await send(
      server.url,
      '',
      { jsonrpc: '2.0', id: 2, method: 'Nope', params: {} },
      {
        'a2a-version': '1.0',
      },
    );
    expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(-32601);
    expect(mapped).toEqual(['InvalidParamsError', 'InvalidParamsError']);
  });

  it('keeps A2A errors thrown by an executor after it emitted as a failed task', async () => {
    server = await startEcho({
      executor: {
        execute(_context, updater) {
          updater.startWork('working');
          throw new A2AError('InvalidParamsError', 'too late to refuse');
        },
      },
    });
    const response = await send(server.url, 'message:send', restBody('x'), { 'a2a-version': '1.0' });
    expect(response.status).toBe(200);
    const task = ((await response.json()) as { task: { status: { state: string } } }).task;
    expect(task.status.state).toBe('TASK_STATE_FAILED');
  });
});

describe('profile hooks', () => {
  it('serves defaultVersion, documents, a decorated card and the routes below a prefix', async () => {
    server = await startEcho({
      defaultVersion: '1.0',
      pathPrefixes: ['/a2a'],
      documents: {
        '/.well-known/example.json': ({ baseUrl, card }) => ({ endpoint: baseUrl, name: card.name }),
      },
      decorateCard: (json, version) => ({ ...json, profile_version: version }),
    });
    // No A2A-Version header: 1.0 here, so the 1.0 REST route and method names work as written.
    const rest = await send(server.url, 'message:send', restBody('hi'));
    expect(rest.status).toBe(200);
    const viaPrefix = await send(server.url, 'a2a/message:send', restBody('hi'));
    expect(viaPrefix.status).toBe(200);
    const rpc = await send(server.url, 'a2a', rpcBody('hi'));
    expect(((await rpc.json()) as { result?: unknown }).result).toBeDefined();

    const card = (await (await fetch(`${server.url}.well-known/agent-card.json`)).json()) as Record<
      string,
      unknown
    >;
    expect(card.profile_version).toBe('1.0');
    // A 0.3 client sends no header, which is 1.0 here: no HTTP 0.3 interface is claimed (0139).
    // Listed without the trailing slash (decision 0138).
    const listed = server.url.replace(/\/$/, '');
    expect(card.supportedInterfaces).toEqual([
      { url: listed, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: listed, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ]);
    const old = (await (
      await fetch(`${server.url}.well-known/agent-card.json`, { headers: { 'a2a-version': '0.3' } })
    ).json()) as Record<string, unknown>;
    expect(old.profile_version).toBe('0.3');

    const doc = await fetch(`${server.url}.well-known/example.json`);
    expect(doc.status).toBe(200);
    expect(await doc.json()).toEqual({ endpoint: server.url, name: 'Echo Agent' });
    const etag = doc.headers.get('etag')!;
    const again = await fetch(`${server.url}.well-known/example.json`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });

  it('refuses a malformed path prefix at construction', async () => {
    await expect(startEcho({ pathPrefixes: ['a2a/'] })).rejects.toThrow(/must look like \/a2a/);
  });
});
