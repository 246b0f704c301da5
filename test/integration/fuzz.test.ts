/**
 * A bounded, seeded fuzz run: a few thousand malformed requests across every binding and
 * version, over real sockets against the echo agent on a real SQLite file. Every request must be
 * answered, and none with a server error: an HTTP status under 500, a gRPC status other than
 * INTERNAL, UNKNOWN or UNAVAILABLE. The figures are printed; CONCORD_FUZZ_SEED replays another
 * seed, CONCORD_FUZZ_CASES scales the run.
 */
import { Metadata, status as grpcStatus, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProtocolVersion } from '../../src/protocol/index.js';
import { loadPushKeys } from '../../src/server/index.js';
import type { GrpcOperation } from '../../src/protocol/grpc/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { grpcClient } from '../helpers/grpc-driver.js';
import { mutateJson, mutateText, pick, randomBytes, rng, type Rng } from '../helpers/fuzz-mutations.js';

const SEED = Number(process.env.CONCORD_FUZZ_SEED ?? 20261126);
const SCALE = Number(process.env.CONCORD_FUZZ_CASES ?? 3000);
const HTTP_CASES = SCALE;
const GRPC_CASES = Math.round(SCALE / 3);
const CONCURRENCY = 8;
const ANSWER_WITHIN_MS = 10_000;

let server: EchoServer;
let taskId: string;
let grpcTarget: string;

beforeAll(async () => {
  // Push on, so push-config requests reach their decoders and the SSRF guard (every webhook host
  // resolves to a public documentation address; nothing is ever delivered in this run).
  server = await startEcho({
    store: 'sqlite',
    grpc: true,
    push: {
      ...(await loadPushKeys({ env: {} })),
      resolve: async () => [{ address: '192.0.2.1', family: 4 }],
    },
  });
  grpcTarget = `127.0.0.1:${server.grpc!.port}`;
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify(rpc('SendMessage', { message: message10('hello') })),
  });
  const body = (await response.json()) as { result: { task: { id: string } } };
  taskId = body.result.task.id;
});
afterAll(async () => {
  await server.close();
});

function rpc(method: string, params: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id: 1, method, params };
}
const message10 = (text: string): unknown => ({
  messageId: `m-${Math.random()}`,
  role: 'ROLE_USER',
  parts: [{ text }, { data: { a: [1, { b: 'c' }] }, metadata: { k: 'v' } }],
  metadata: { trace: 'x' },
});
const message03 = (text: string): unknown => ({
  kind: 'message',
  messageId: `m-${Math.random()}`,
  role: 'user',
  parts: [
    { kind: 'text', text },
    { kind: 'data', data: { a: [1, { b: 'c' }] } },
  ],
  metadata: { trace: 'x' },
});
const push = { url: 'https://example.com/hook', token: 't' };

/** One HTTP request: what the fuzzer starts from before it breaks something. */
interface HttpBase {
  name: string;
  method: string;
  path: string;
  version?: string;
  body?: unknown;
}

function httpBases(): HttpBase[] {
  const id = taskId;
  const v10 = (method: string, params: unknown): HttpBase => ({
    name: `JSON-RPC 1.0 ${method}`,
    method: 'POST',
    path: '',
    version: '1.0',
    body: rpc(method, params),
  });
  const v03 = (method: string, params: unknown): HttpBase => ({
    name: `JSON-RPC 0.3 ${method}`,
    method: 'POST',
    path: '',
    body: rpc(method, params),
  });
  const rest10 = (method: string, path: string, body?: unknown): HttpBase => ({
    name: `HTTP+JSON 1.0 ${method} ${path}`,
    method,
    path,
    version: '1.0',
    ...(body === undefined ? {} : { body }),
  });
  const rest03 = (method: string, path: string, body?: unknown): HttpBase => ({
    name: `HTTP+JSON 0.3 ${method} ${path}`,
    method,
    path: `v1/${path}`,
    ...(body === undefined ? {} : { body }),
  });
  return [
    v10('SendMessage', { message: message10('hello'), configuration: { historyLength: 2 } }),
    v10('SendStreamingMessage', { message: message10('hello') }),
    v10('GetTask', { id, historyLength: 3 }),
    v10('ListTasks', { pageSize: 5, status: 'TASK_STATE_COMPLETED' }),
    v10('CancelTask', { id }),
    v10('SubscribeToTask', { id }),
    v10('CreateTaskPushNotificationConfig', { taskId: id, ...push }),
    v10('GetTaskPushNotificationConfig', { taskId: id, id: 'c1' }),
    v10('ListTaskPushNotificationConfigs', { taskId: id }),
    v10('DeleteTaskPushNotificationConfig', { taskId: id, id: 'c1' }),
    v10('GetExtendedAgentCard', {}),
    v03('message/send', { message: message03('hello') }),
    v03('message/stream', { message: message03('hello') }),
    v03('tasks/get', { id, historyLength: 1 }),
    v03('tasks/cancel', { id }),
    v03('tasks/resubscribe', { id }),
    v03('tasks/pushNotificationConfig/set', { taskId: id, pushNotificationConfig: push }),
    v03('tasks/pushNotificationConfig/get', { id, pushNotificationConfigId: 'c1' }),
    v03('tasks/pushNotificationConfig/list', { id }),
    v03('tasks/pushNotificationConfig/delete', { id, pushNotificationConfigId: 'c1' }),
    rest10('POST', 'message:send', { message: message10('hello') }),
    rest10('POST', 'message:stream', { message: message10('hello') }),
    rest10('GET', `tasks/${id}?historyLength=2`),
    rest10('GET', 'tasks?pageSize=3&status=TASK_STATE_COMPLETED'),
    rest10('POST', `tasks/${id}:cancel`, {}),
    rest10('GET', `tasks/${id}:subscribe`),
    rest10('POST', `tasks/${id}/pushNotificationConfigs`, { taskId: id, ...push }),
    rest10('GET', `tasks/${id}/pushNotificationConfigs/c1`),
    rest10('DELETE', `tasks/${id}/pushNotificationConfigs/c1`),
    rest10('GET', 'extendedAgentCard'),
    rest03('POST', 'message:send', {
      message: { messageId: 'm', role: 'ROLE_USER', content: [{ text: 'hello' }] },
    }),
    rest03('POST', 'message:stream', {
      message: { messageId: 'm', role: 'ROLE_USER', content: [{ text: 'hello' }] },
    }),
    rest03('GET', `tasks/${id}?historyLength=2`),
    rest03('GET', 'tasks?pageSize=2'),
    rest03('POST', `tasks/${id}:cancel`, {}),
    rest03('POST', `tasks/${id}/pushNotificationConfigs`, {
      parent: `tasks/${id}`,
      configId: 'c1',
      config: { name: `tasks/${id}/pushNotificationConfigs/c1`, pushNotificationConfig: push },
    }),
    rest03('GET', 'card'),
  ];
}

/** What happened to one request. */
interface Answer {
  name: string;
  status: number | string;
  failure?: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];
const VERSIONS = [undefined, '1.0', '0.3', '2.0', '1', 'x'.repeat(300), ' 1.0 ,0.3'];
const CONTENT_TYPES = [
  'application/json',
  'application/a2a+json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'multipart/form-data; boundary=x',
  '',
  ';;;',
];
const PATH_NOISE = ['%00', '%2F', '..', '%', '%E0%A4%A', 'tasks/', ':cancel', 'x'.repeat(5000), '//', '?a=%'];

function httpCase(random: Rng, bases: HttpBase[]): { name: string; init: RequestInit; url: string } {
  const base = pick(random, bases);
  const headers: Record<string, string> = {};
  let method = base.method;
  let path = base.path;
  let version = base.version;
  let body: string | Buffer | undefined = base.body === undefined ? undefined : JSON.stringify(base.body);
  const how: string[] = [];
  const roll = random();
  if (roll < 0.5 && base.body !== undefined) {
    const mutated = mutateJson(random, base.body);
    body = mutated.text;
    how.push(mutated.how);
  } else if (roll < 0.7 && body !== undefined) {
    const mutated = mutateText(random, body);
    body = mutated.bytes;
    how.push(mutated.how);
  } else if (roll < 0.8) {
    path = `${path}${pick(random, PATH_NOISE)}`;
    how.push('path noise');
  } else if (roll < 0.9) {
    method = pick(random, METHODS);
    how.push(`method ${method}`);
  } else {
    body = randomBytes(random, Math.floor(random() * 200));
    how.push('random bytes');
  }
  if (random() < 0.15) {
    version = pick(random, VERSIONS);
    how.push(`version ${String(version).slice(0, 12)}`);
  }
  const contentType = random() < 0.15 ? pick(random, CONTENT_TYPES) : 'application/json';
  if (contentType !== '') headers['content-type'] = contentType;
  if (version !== undefined) headers['a2a-version'] = version;
  if (random() < 0.1) headers.accept = pick(random, ['text/event-stream', 'application/xml', '*/*', '']);
  const withBody = method !== 'GET' && method !== 'HEAD' && body !== undefined;
  return {
    name: `${base.name} [${how.join(', ')}]`,
    url: `${server.url}${path}`,
    init: {
      method,
      headers,
      ...(withBody ? { body: typeof body === 'string' ? body : new Uint8Array(body!) } : {}),
    },
  };
}

async function sendHttp(request: { name: string; init: RequestInit; url: string }): Promise<Answer> {
  try {
    const response = await fetch(request.url, {
      ...request.init,
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
    const text = await response.text();
    // JSON-RPC errors travel with HTTP 200, and streams carry theirs in events: an internal
    // error hides in the body there, so the body is read too.
    const rpcCode = /"code":\s*(-32\d{3})/.exec(text)?.[1];
    const status = rpcCode === undefined ? response.status : `${response.status} ${rpcCode}`;
    const internal = response.status >= 500 || rpcCode === '-32603';
    return { name: request.name, status, ...(internal ? { failure: `HTTP ${status}` } : {}) };
  } catch (error) {
    return { name: request.name, status: 'unanswered', failure: (error as Error).message };
  }
}

/** The canonical requests the gRPC fuzzer starts from, per operation. */
function grpcBases(version: ProtocolVersion): [GrpcOperation, unknown][] {
  const message = {
    messageId: 'm',
    role: 'user',
    parts: [
      { kind: 'text', text: 'hello' },
      { kind: 'data', data: { a: [1, { b: 'c' }] } },
    ],
    kind: 'message',
  };
  const bases: [GrpcOperation, unknown][] = [
    ['sendMessage', { message }],
    ['sendStreamingMessage', { message }],
    ['getTask', { id: taskId, historyLength: 2 }],
    ['cancelTask', { id: taskId }],
    ['subscribeToTask', { id: taskId }],
    ['getExtendedAgentCard', {}],
    ['createTaskPushNotificationConfig', { taskId, id: 'c1', url: 'https://example.com/hook', token: 't' }],
    ['getTaskPushNotificationConfig', { taskId, id: 'c1' }],
    ['listTaskPushNotificationConfigs', { taskId, pageSize: 2 }],
    ['deleteTaskPushNotificationConfig', { taskId, id: 'c1' }],
  ];
  if (version === '1.0') bases.push(['listTasks', { pageSize: 3 }]);
  return bases;
}

const SERVER_FAULTS = new Set<number>([grpcStatus.INTERNAL, grpcStatus.UNKNOWN, grpcStatus.UNAVAILABLE]);

async function grpcCases(random: Rng, version: ProtocolVersion, count: number): Promise<Answer[]> {
  const { client, method } = grpcClient(grpcTarget, version);
  const bases = grpcBases(version);
  const answers: Answer[] = [];
  const one = async (): Promise<Answer> => {
    const [operation, request] = pick(random, bases);
    const m = method(operation);
    let bytes: Buffer = m.writeRequest(request);
    let how = 'valid';
    const roll = random();
    if (roll < 0.4) {
      try {
        const mutated = mutateJson(random, request);
        bytes = m.writeRequest(JSON.parse(mutated.text));
        how = mutated.how;
      } catch {
        how = 'unencodable mutation: valid bytes';
      }
    } else if (roll < 0.8) {
      const mutated = mutateText(random, bytes);
      bytes = Buffer.from(mutated.bytes);
      how = `bytes: ${mutated.how}`;
    } else {
      bytes = randomBytes(random, Math.floor(random() * 300));
      how = 'random bytes';
    }
    const name = `gRPC ${version} ${operation} [${how}]`;
    const metadata = new Metadata();
    if (version === '1.0') metadata.set('a2a-version', '1.0');
    const deadline = Date.now() + ANSWER_WITHIN_MS;
    const judge = (error: ServiceError | null): Answer =>
      error === null
        ? { name, status: 'OK' }
        : {
            name,
            status: grpcStatus[error.code] ?? String(error.code),
            ...(SERVER_FAULTS.has(error.code) || error.code === grpcStatus.DEADLINE_EXCEEDED
              ? {
                  failure: `${grpcStatus[error.code]}: ${error.details} (request ${bytes.toString('base64').slice(0, 400)})`,
                }
              : {}),
          };
    if (m.responseStream) {
      return new Promise((resolve) => {
        const call = client.makeServerStreamRequest(
          m.path,
          (b: Buffer) => b,
          (b: Buffer) => b,
          bytes,
          metadata,
          { deadline },
        );
        call.on('data', () => undefined);
        call.on('error', (error: ServiceError) => resolve(judge(error)));
        call.on('end', () => resolve(judge(null)));
      });
    }
    return new Promise((resolve) => {
      client.makeUnaryRequest(
        m.path,
        (b: Buffer) => b,
        (b: Buffer) => b,
        bytes,
        metadata,
        { deadline },
        (error) => resolve(judge(error)),
      );
    });
  };
  for (let done = 0; done < count; done += CONCURRENCY) {
    const batch = Array.from({ length: Math.min(CONCURRENCY, count - done) }, one);
    answers.push(...(await Promise.all(batch)));
  }
  client.close();
  return answers;
}

function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[String(a.status)] = (counts[String(a.status)] ?? 0) + 1;
  return counts;
}

describe(`seeded fuzz (seed ${SEED})`, () => {
  it(`${HTTP_CASES} malformed HTTP requests: every one answered, none with a 5xx`, async () => {
    const random = rng(SEED);
    const bases = httpBases();
    const answers: Answer[] = [];
    for (let done = 0; done < HTTP_CASES; done += CONCURRENCY) {
      const batch = Array.from({ length: Math.min(CONCURRENCY, HTTP_CASES - done) }, () =>
        sendHttp(httpCase(random, bases)),
      );
      answers.push(...(await Promise.all(batch)));
    }
    const failures = answers.filter((a) => a.failure !== undefined);
    console.log(`fuzz HTTP seed ${SEED}: ${answers.length} requests`, tally(answers));
    expect(failures.slice(0, 10)).toEqual([]);
    // Still serving: a plain send after the storm.
    const after = await sendHttp({
      name: 'after',
      url: server.url,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify(rpc('SendMessage', { message: message10('hello') })),
      },
    });
    expect(after.status).toBe(200);
  }, 300_000);

  it(`${GRPC_CASES * 2} malformed gRPC calls on both versions: every one answered, none INTERNAL`, async () => {
    const random = rng(SEED + 1);
    const answers = [
      ...(await grpcCases(random, '1.0', GRPC_CASES)),
      ...(await grpcCases(random, '0.3', GRPC_CASES)),
    ];
    const failures = answers.filter((a) => a.failure !== undefined);
    console.log(`fuzz gRPC seed ${SEED + 1}: ${answers.length} calls`, tally(answers));
    expect(failures.slice(0, 10)).toEqual([]);
  }, 300_000);

  it('no internal error reached the server hook', () => {
    expect(server.errors.map((e) => String(e)).slice(0, 5)).toEqual([]);
  });
});
