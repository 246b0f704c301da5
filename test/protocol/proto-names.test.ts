/**
 * Decision 0136, spelling: every codec reads each field under its json name (lowerCamelCase) or
 * its proto name (snake_case), writes only the json name, refuses a field sent under both names
 * at the proto-name pointer, and never renames the keys of Struct content (`metadata`, `data`).
 * Each fixture is encoded, every member name outside Struct content is snake_cased, and the
 * decoded value must equal the camelCase decoding.
 */
import { describe, expect, it } from 'vitest';
import type { WireCodec } from '../../src/protocol/codec.js';
import { v0_3JsonRpcCodec, v0_3RestCodec } from '../../src/protocol/v0_3/index.js';
import { v1_0Codec } from '../../src/protocol/v1_0/index.js';
import type { ListTasksRequest } from '../../src/protocol/model.js';
import {
  artifactUpdate,
  card,
  pushConfig,
  restTask,
  sendRequest,
  statusUpdate,
  task,
  wire,
} from './v0_3-fixtures.js';

/**
 * Members whose content keeps its keys: Struct content is user data (`metadata`, `data`, extension
 * `params`, signature `header`), and map keys (`securitySchemes`, `scopes`, requirement
 * `schemes`) are names the card's author chose.
 */
const STRUCT = new Set(['metadata', 'data', 'params', 'header']);
const MAPS = new Set(['securitySchemes', 'scopes', 'schemes']);

function snake(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snake);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const name = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    out[name] = STRUCT.has(key) ? member : MAPS.has(key) ? snakeValues(member) : snake(member);
  }
  return out;
}

function snakeValues(map: unknown): unknown {
  if (Array.isArray(map)) return snake(map);
  return Object.fromEntries(Object.entries(map as Record<string, unknown>).map(([k, v]) => [k, snake(v)]));
}

const listRequest: ListTasksRequest = {
  contextId: 'ctx-1',
  status: 'TASK_STATE_WORKING',
  pageSize: 10,
  pageToken: 'p2',
  historyLength: 3,
  statusTimestampAfter: '2025-08-01T10:00:00.000Z',
  includeArtifacts: true,
};

const CODECS: [string, WireCodec, typeof task][] = [
  ['1.0', v1_0Codec, task],
  ['0.3 JSON-RPC', v0_3JsonRpcCodec, task],
  ['0.3 REST', v0_3RestCodec, restTask],
];

describe.each(CODECS)('%s codec', (_name, codec, fixture) => {
  const cases: [string, unknown, (value: unknown, path: string) => unknown][] = [
    ['SendMessageRequest', codec.encodeSendMessageRequest(sendRequest), codec.decodeSendMessageRequest],
    ['GetTaskRequest', codec.encodeGetTaskRequest({ id: 't', historyLength: 4 }), codec.decodeGetTaskRequest],
    ['ListTasksRequest', codec.encodeListTasksRequest(listRequest), codec.decodeListTasksRequest],
    [
      'push config',
      codec.encodeTaskPushNotificationConfig(pushConfig),
      codec.decodeTaskPushNotificationConfig,
    ],
    [
      'push config ref',
      codec.encodeTaskPushNotificationConfigRef({ taskId: 'task-1', id: 'cfg-1' }),
      codec.decodeTaskPushNotificationConfigRef,
    ],
    ['Task', codec.encodeTask(fixture), codec.decodeTask],
    ['status update', codec.encodeStreamResponse({ statusUpdate }), codec.decodeStreamResponse],
    ['artifact update', codec.encodeStreamResponse({ artifactUpdate }), codec.decodeStreamResponse],
    [
      'ListTasksResponse',
      codec.encodeListTasksResponse({ tasks: [fixture], nextPageToken: 'n', pageSize: 1, totalSize: 2 }),
      codec.decodeListTasksResponse,
    ],
  ];

  // The 0.3 REST ref is built by the binding from the URL path, never sent as a body.
  const wireCases = codec === v0_3RestCodec ? cases.filter(([what]) => what !== 'push config ref') : cases;

  it.each(wireCases)('reads %s in proto field names as in json names', (_what, encoded, decode) => {
    const camel = wire(encoded);
    const proto = snake(camel);
    expect(JSON.stringify(proto)).not.toEqual(JSON.stringify(camel));
    expect(decode(proto, '/params')).toEqual(decode(camel, '/params'));
  });

  if (codec === v1_0Codec) {
    it('reads an AgentCard in proto field names as in json names (security oneofs included)', () => {
      const camel = wire(codec.encodeAgentCard(card));
      const proto = snake(camel);
      expect(JSON.stringify(proto)).toContain('"open_id_connect_security_scheme"');
      expect(codec.decodeAgentCard(proto, '')).toEqual(codec.decodeAgentCard(camel, ''));
    });
  }

  it('keeps Struct keys as they came (metadata and data are user data)', () => {
    const encoded = wire(codec.encodeSendMessageRequest(sendRequest)) as Record<string, unknown>;
    encoded.metadata = { snake_key: 1, camelKey: { inner_key: 2 } };
    const decoded = codec.decodeSendMessageRequest(snake(encoded), '/params');
    expect(decoded.metadata).toEqual({ snake_key: 1, camelKey: { inner_key: 2 } });
    expect(decoded.message.parts[3]?.data).toEqual({ make: 'Volvo', budget: 30000, features: ['awd', null] });
  });

  it('refuses a field sent under both names, at the proto-name pointer', () => {
    const encoded = wire(codec.encodeGetTaskRequest({ id: 't', historyLength: 4 })) as Record<
      string,
      unknown
    >;
    encoded.history_length = 5;
    expect(() => codec.decodeGetTaskRequest(encoded, '/params')).toThrow(
      /\/params\/history_length: duplicates historyLength/,
    );
  });

  it('names the proto-name pointer when a value sent under it is bad', () => {
    const message = wire(codec.encodeMessage(sendRequest.message)) as Record<string, unknown>;
    delete message.contextId;
    message.context_id = 7;
    expect(() => codec.decodeMessage(message, '/m')).toThrow(/\/m\/context_id: expected a string/);
  });

  it('writes only json names', () => {
    const text = JSON.stringify([
      codec.encodeSendMessageRequest(sendRequest),
      codec.encodeTask(fixture),
      codec.encodeListTasksRequest(listRequest),
    ]);
    expect(text).not.toMatch(/"[a-z]+_[a-z_]+":/);
  });
});
