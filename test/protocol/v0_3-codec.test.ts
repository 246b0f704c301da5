import { describe, it, expect } from 'vitest';
import { v0_3JsonRpcCodec as rpc, v0_3RestCodec as rest } from '../../src/protocol/v0_3/index.js';
import { A2AError } from '../../src/protocol/errors.js';
import { TASK_STATES } from '../../src/protocol/model.js';
import type {
  Message,
  SendMessageRequest,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskPushNotificationConfig,
  TaskState,
  TaskStatusUpdateEvent,
} from '../../src/protocol/model.js';
import type { AgentCard } from '../../src/protocol/agent-card.js';

/** Runs `fn`, expecting an InvalidParamsError whose first violation names `field`. */
function expectInvalid(fn: () => unknown, field: string): A2AError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(A2AError);
  const err = caught as A2AError;
  expect(err.type).toBe('InvalidParamsError');
  expect(err.violations?.[0]?.field).toBe(field);
  return err;
}

const clone = <T>(value: T): T => structuredClone(value);
/** What a peer receives: JSON text, parsed again. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

// ---------------------------------------------------------------------------------------------
// Canonical fixtures (1.0-shaped model).

const userMessage: Message = {
  messageId: 'msg-1',
  role: 'ROLE_USER',
  parts: [
    { text: 'Find me a red sedan' },
    { raw: 'aGVsbG8gd29ybGQ=', filename: 'hello.txt', mediaType: 'text/plain' },
    { url: 'https://example.com/brochure.pdf', filename: 'brochure.pdf', mediaType: 'application/pdf' },
    { data: { make: 'Volvo', budget: 30000, features: ['awd', null] }, metadata: { schema: 'car/v1' } },
  ],
  contextId: 'ctx-1',
  taskId: 'task-1',
  referenceTaskIds: ['task-0'],
  extensions: ['https://example.com/ext/aump/v1'],
  metadata: { trace: 'abc' },
};

const agentMessage: Message = {
  messageId: 'msg-2',
  role: 'ROLE_AGENT',
  parts: [{ text: 'Working on it', metadata: { lang: 'en' } }, { raw: 'AAEC' }],
  contextId: 'ctx-1',
  taskId: 'task-1',
};

const task: Task = {
  id: 'task-1',
  contextId: 'ctx-1',
  status: {
    state: 'TASK_STATE_COMPLETED',
    message: { messageId: 'msg-3', role: 'ROLE_AGENT', parts: [{ text: 'Done' }] },
    timestamp: '2025-08-01T10:00:00.000Z',
  },
  history: [userMessage, agentMessage],
  artifacts: [
    {
      artifactId: 'art-1',
      name: 'shortlist',
      description: 'Three matching cars',
      parts: [
        { data: { cars: ['a', 'b', 'c'] } },
        { url: 'https://example.com/a.png', mediaType: 'image/png' },
      ],
      metadata: { rank: 1 },
      extensions: ['https://example.com/ext/aap/v0.1'],
    },
  ],
  metadata: { dealer: 7 },
};

const statusUpdate: TaskStatusUpdateEvent = {
  taskId: 'task-1',
  contextId: 'ctx-1',
  status: { state: 'TASK_STATE_WORKING', timestamp: '2025-08-01T10:00:01.000Z' },
  metadata: { step: 2 },
};

const artifactUpdate: TaskArtifactUpdateEvent = {
  taskId: 'task-1',
  contextId: 'ctx-1',
  artifact: { artifactId: 'art-2', parts: [{ text: 'chunk 1' }] },
  append: true,
  lastChunk: false,
  metadata: { seq: 1 },
};

const pushConfig: TaskPushNotificationConfig = {
  id: 'cfg-1',
  taskId: 'task-1',
  url: 'https://client.example.com/hook',
  token: 'tok-1',
  authentication: { scheme: 'Bearer', credentials: 'secret' },
};

const sendRequest: SendMessageRequest = {
  message: userMessage,
  configuration: {
    acceptedOutputModes: ['text/plain', 'application/json'],
    historyLength: 5,
    taskPushNotificationConfig: { taskId: '', url: 'https://client.example.com/hook', token: 'tok-2' },
    returnImmediately: true,
  },
  metadata: { origin: 'test' },
};

const card: AgentCard = {
  name: 'Dealer agent',
  description: 'Finds cars',
  supportedInterfaces: [
    { url: 'https://dealer.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: 'https://dealer.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    { url: 'https://dealer.example.com/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
  ],
  provider: { organization: 'Example Motors', url: 'https://example.com' },
  version: '2.1.0',
  documentationUrl: 'https://dealer.example.com/docs',
  iconUrl: 'https://dealer.example.com/icon.png',
  capabilities: {
    streaming: true,
    pushNotifications: false,
    extensions: [
      { uri: 'https://example.com/ext/aump/v1', description: 'mandates', required: true, params: { a: 1 } },
    ],
    extendedAgentCard: true,
  },
  securitySchemes: {
    apiKey: { apiKeySecurityScheme: { description: 'key', location: 'header', name: 'X-API-Key' } },
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
    oauth: {
      oauth2SecurityScheme: {
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://auth.example.com/authorize',
            tokenUrl: 'https://auth.example.com/token',
            refreshUrl: 'https://auth.example.com/refresh',
            scopes: { read: 'Read', write: 'Write' },
          },
        },
        oauth2MetadataUrl: 'https://auth.example.com/.well-known/oauth-authorization-server',
      },
    },
    oidc: {
      openIdConnectSecurityScheme: {
        openIdConnectUrl: 'https://auth.example.com/.well-known/openid-configuration',
      },
    },
    mtls: { mtlsSecurityScheme: { description: 'client certificate' } },
  },
  securityRequirements: [
    { schemes: { oauth: { list: ['read'] } } },
    { schemes: { apiKey: { list: [] }, mtls: { list: [] } } },
  ],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain', 'application/json'],
  skills: [
    {
      id: 'search',
      name: 'Search',
      description: 'Searches the stock',
      tags: ['cars'],
      examples: ['red sedan'],
      inputModes: ['text/plain'],
      outputModes: ['application/json'],
      securityRequirements: [{ schemes: { oauth: { list: ['read', 'write'] } } }],
    },
  ],
  signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2ln', header: { kid: 'k1' } }],
};

const FINAL: Record<TaskState, boolean> = {
  TASK_STATE_SUBMITTED: false,
  TASK_STATE_WORKING: false,
  TASK_STATE_INPUT_REQUIRED: true,
  TASK_STATE_AUTH_REQUIRED: true,
  TASK_STATE_COMPLETED: true,
  TASK_STATE_CANCELED: true,
  TASK_STATE_FAILED: true,
  TASK_STATE_REJECTED: true,
};

/** The same message without what the 0.3 proto cannot carry (Message.referenceTaskIds). */
function protoSafe(message: Message): Message {
  const copy = clone(message);
  delete copy.referenceTaskIds;
  return copy;
}
const restTask: Task = { ...task, history: task.history?.map(protoSafe) };

// ---------------------------------------------------------------------------------------------

describe('0.3 JSON-RPC codec', () => {
  it('identifies itself', () => {
    expect(rpc.dialect).toBe('0.3-jsonrpc');
    expect(rpc.version).toBe('0.3');
  });

  it('round-trips tasks, messages, send results and every stream event', () => {
    expect(rpc.decodeTask(wire(rpc.encodeTask(task)), '/result')).toEqual(task);
    expect(rpc.decodeMessage(wire(rpc.encodeMessage(userMessage)), '/result')).toEqual(userMessage);
    for (const response of [{ task }, { message: agentMessage }]) {
      expect(rpc.decodeSendMessageResponse(wire(rpc.encodeSendMessageResponse(response)), '/result')).toEqual(
        response,
      );
    }
    const events: StreamResponse[] = [
      { task },
      { message: userMessage },
      { statusUpdate },
      { artifactUpdate },
    ];
    for (const event of events) {
      expect(rpc.decodeStreamResponse(wire(rpc.encodeStreamResponse(event)), '/result')).toEqual(event);
    }
  });

  it('encodes the types.ts shapes with kind, lowercase states and roles', () => {
    expect(rpc.encodeTask(task)).toEqual({
      kind: 'task',
      id: 'task-1',
      contextId: 'ctx-1',
      status: {
        state: 'completed',
        message: {
          kind: 'message',
          messageId: 'msg-3',
          role: 'agent',
          parts: [{ kind: 'text', text: 'Done' }],
        },
        timestamp: '2025-08-01T10:00:00.000Z',
      },
      history: [
        {
          kind: 'message',
          messageId: 'msg-1',
          role: 'user',
          parts: [
            { kind: 'text', text: 'Find me a red sedan' },
            { kind: 'file', file: { bytes: 'aGVsbG8gd29ybGQ=', name: 'hello.txt', mimeType: 'text/plain' } },
            {
              kind: 'file',
              file: {
                uri: 'https://example.com/brochure.pdf',
                name: 'brochure.pdf',
                mimeType: 'application/pdf',
              },
            },
            {
              kind: 'data',
              data: { make: 'Volvo', budget: 30000, features: ['awd', null] },
              metadata: { schema: 'car/v1' },
            },
          ],
          contextId: 'ctx-1',
          taskId: 'task-1',
          referenceTaskIds: ['task-0'],
          extensions: ['https://example.com/ext/aump/v1'],
          metadata: { trace: 'abc' },
        },
        {
          kind: 'message',
          messageId: 'msg-2',
          role: 'agent',
          parts: [
            { kind: 'text', text: 'Working on it', metadata: { lang: 'en' } },
            { kind: 'file', file: { bytes: 'AAEC' } },
          ],
          contextId: 'ctx-1',
          taskId: 'task-1',
        },
      ],
      artifacts: [
        {
          artifactId: 'art-1',
          name: 'shortlist',
          description: 'Three matching cars',
          parts: [
            { kind: 'data', data: { cars: ['a', 'b', 'c'] } },
            { kind: 'file', file: { uri: 'https://example.com/a.png', mimeType: 'image/png' } },
          ],
          metadata: { rank: 1 },
          extensions: ['https://example.com/ext/aap/v0.1'],
        },
      ],
      metadata: { dealer: 7 },
    });
    // message/send and message/stream results are bare objects, never {task} / {message} wrappers.
    expect(rpc.encodeSendMessageResponse({ message: agentMessage })).toMatchObject({ kind: 'message' });
    expect(rpc.encodeStreamResponse({ statusUpdate })).toEqual({
      kind: 'status-update',
      taskId: 'task-1',
      contextId: 'ctx-1',
      status: { state: 'working', timestamp: '2025-08-01T10:00:01.000Z' },
      final: false,
      metadata: { step: 2 },
    });
    expect(rpc.encodeStreamResponse({ artifactUpdate })).toEqual({
      kind: 'artifact-update',
      taskId: 'task-1',
      contextId: 'ctx-1',
      artifact: { artifactId: 'art-2', parts: [{ kind: 'text', text: 'chunk 1' }] },
      append: true,
      lastChunk: false,
      metadata: { seq: 1 },
    });
  });

  it('sets final on terminal and interrupted states only, and ignores it on decode', () => {
    const lower: Record<TaskState, string> = {
      TASK_STATE_SUBMITTED: 'submitted',
      TASK_STATE_WORKING: 'working',
      TASK_STATE_INPUT_REQUIRED: 'input-required',
      TASK_STATE_AUTH_REQUIRED: 'auth-required',
      TASK_STATE_COMPLETED: 'completed',
      TASK_STATE_CANCELED: 'canceled',
      TASK_STATE_FAILED: 'failed',
      TASK_STATE_REJECTED: 'rejected',
    };
    for (const state of TASK_STATES) {
      const event: StreamResponse = { statusUpdate: { taskId: 't', contextId: 'c', status: { state } } };
      const encoded = rpc.encodeStreamResponse(event) as { final: boolean; status: { state: string } };
      expect(encoded.final, state).toBe(FINAL[state]);
      expect(encoded.status.state).toBe(lower[state]);
      expect(rpc.decodeStreamResponse(wire(encoded), '')).toEqual(event);
      // A peer's `final` (even a wrong one) does not reach the canonical event.
      expect(rpc.decodeStreamResponse({ ...encoded, final: !encoded.final }, '')).toEqual(event);
    }
  });

  it('decodes hand-written 0.3 wire objects', () => {
    const wireTask = {
      kind: 'task',
      id: 't-9',
      contextId: 'c-9',
      status: {
        state: 'input-required',
        message: {
          kind: 'message',
          role: 'agent',
          messageId: 'm-9',
          parts: [{ kind: 'data', data: { need: 'zip' } }],
        },
        timestamp: '2025-08-01T12:00:00.123456+00:00',
      },
      history: [],
      unknownField: 'ignored',
    };
    expect(rpc.decodeTask(wireTask, '/result')).toEqual({
      id: 't-9',
      contextId: 'c-9',
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        message: { messageId: 'm-9', role: 'ROLE_AGENT', parts: [{ data: { need: 'zip' } }] },
        // 0.3 peers send offsets; the canonical model holds UTC with Z.
        timestamp: '2025-08-01T12:00:00.123Z',
      },
      history: [],
    });
    const canceled = {
      kind: 'status-update',
      taskId: 't',
      contextId: 'c',
      status: { state: 'canceled' },
      final: true,
    };
    expect(rpc.decodeStreamResponse(canceled, '')).toEqual({
      statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_CANCELED' } },
    });
  });

  it('maps MessageSendParams onto the canonical send request', () => {
    const params = {
      message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
      configuration: {
        acceptedOutputModes: ['text/plain'],
        historyLength: 3,
        blocking: false,
        pushNotificationConfig: {
          id: 'p1',
          url: 'https://hook.example.com',
          token: 't',
          authentication: { schemes: ['Bearer', 'Basic'], credentials: 'c' },
        },
      },
      metadata: { m: 1 },
    };
    expect(rpc.decodeSendMessageRequest(params, '/params')).toEqual({
      message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
      configuration: {
        acceptedOutputModes: ['text/plain'],
        historyLength: 3,
        returnImmediately: true,
        // The send's task has no id yet; 1.0 holds one scheme, the first listed.
        taskPushNotificationConfig: {
          id: 'p1',
          taskId: '',
          url: 'https://hook.example.com',
          token: 't',
          authentication: { scheme: 'Bearer', credentials: 'c' },
        },
      },
      metadata: { m: 1 },
    });
    // Absent blocking means blocking; blocking:true likewise; historyLength 0 means unlimited (0.3).
    const blocking = rpc.decodeSendMessageRequest(
      { message: params.message, configuration: { historyLength: 0 } },
      '/params',
    );
    expect(blocking.configuration).toEqual({});
    expect(
      rpc.decodeSendMessageRequest({ ...params, configuration: { blocking: true } }, '').configuration,
    ).toEqual({});
    expect(rpc.decodeSendMessageRequest(wire(rpc.encodeSendMessageRequest(sendRequest)), '')).toEqual(
      sendRequest,
    );
    expect(rpc.encodeSendMessageRequest(sendRequest)).toMatchObject({
      configuration: {
        blocking: false,
        pushNotificationConfig: { url: 'https://client.example.com/hook', token: 'tok-2' },
      },
    });
    expect(rpc.encodeSendMessageRequest({ message: agentMessage, configuration: {} })).toMatchObject({
      configuration: { blocking: true },
    });
  });

  it('maps the task and push-config params of the 0.3 methods', () => {
    expect(rpc.decodeGetTaskRequest({ id: 't', historyLength: 2, metadata: {} }, '/params')).toEqual({
      id: 't',
      historyLength: 2,
    });
    expect(rpc.decodeGetTaskRequest({ id: 't', historyLength: 0 }, '/params')).toEqual({ id: 't' });
    expect(rpc.encodeGetTaskRequest({ id: 't', historyLength: 2 })).toEqual({ id: 't', historyLength: 2 });
    expect(rpc.decodeCancelTaskRequest({ id: 't', metadata: { why: 'x' } }, '')).toEqual({
      id: 't',
      metadata: { why: 'x' },
    });
    expect(rpc.encodeCancelTaskRequest({ id: 't' })).toEqual({ id: 't' });
    expect(rpc.decodeSubscribeToTaskRequest({ id: 't', metadata: {} }, '')).toEqual({ id: 't' });
    expect(rpc.encodeSubscribeToTaskRequest({ id: 't' })).toEqual({ id: 't' });

    const wireConfig = {
      taskId: 'task-1',
      pushNotificationConfig: {
        id: 'cfg-1',
        url: 'https://client.example.com/hook',
        token: 'tok-1',
        authentication: { schemes: ['Bearer'], credentials: 'secret' },
      },
    };
    expect(rpc.encodeTaskPushNotificationConfig(pushConfig)).toEqual(wireConfig);
    expect(rpc.decodeTaskPushNotificationConfig(wireConfig, '/params')).toEqual(pushConfig);
    expect(rpc.decodeTaskPushNotificationConfigRef({ id: 't', pushNotificationConfigId: 'c' }, '')).toEqual({
      taskId: 't',
      id: 'c',
    });
    expect(rpc.decodeTaskPushNotificationConfigRef({ id: 't' }, '')).toEqual({ taskId: 't' });
    expect(rpc.encodeTaskPushNotificationConfigRef({ taskId: 't', id: 'c' })).toEqual({
      id: 't',
      pushNotificationConfigId: 'c',
    });
    expect(rpc.decodeListTaskPushNotificationConfigsRequest({ id: 't' }, '')).toEqual({ taskId: 't' });
    expect(rpc.encodeListTaskPushNotificationConfigsRequest({ taskId: 't', pageSize: 5 })).toEqual({
      id: 't',
    });
    // The list result is a bare array of TaskPushNotificationConfig.
    const list = rpc.encodeListTaskPushNotificationConfigsResponse({ configs: [pushConfig] });
    expect(list).toEqual([wireConfig]);
    expect(rpc.decodeListTaskPushNotificationConfigsResponse(wire(list), '/result')).toEqual({
      configs: [pushConfig],
    });
  });

  it('carries ListTasks in plain JSON with lowercase states', () => {
    const request = {
      contextId: 'ctx-1',
      status: 'TASK_STATE_CANCELED' as const,
      pageSize: 10,
      pageToken: 'p2',
      historyLength: 2,
      statusTimestampAfter: '2025-08-01T00:00:00.000Z',
      includeArtifacts: true,
    };
    const encoded = rpc.encodeListTasksRequest(request);
    expect(encoded).toEqual({ ...request, status: 'canceled' });
    expect(rpc.decodeListTasksRequest(wire(encoded), '')).toEqual(request);
    const response = { tasks: [task], nextPageToken: '', pageSize: 50, totalSize: 1 };
    expect(rpc.decodeListTasksResponse(wire(rpc.encodeListTasksResponse(response)), '')).toEqual(response);
    expect(rpc.decodeListTasksResponse(wire([rpc.encodeTask(task)]), '')).toEqual({
      tasks: [task],
      nextPageToken: '',
      pageSize: 1,
      totalSize: 1,
    });
  });

  it('wraps non-object data as {value} (0.3 data parts hold objects only)', () => {
    const message: Message = { messageId: 'm', role: 'ROLE_AGENT', parts: [{ data: [1, 2] }, { data: 'x' }] };
    const encoded = rpc.encodeMessage(message);
    expect(encoded).toMatchObject({
      parts: [
        { kind: 'data', data: { value: [1, 2] } },
        { kind: 'data', data: { value: 'x' } },
      ],
    });
    expect(rpc.decodeMessage(wire(encoded), '')).toEqual({
      messageId: 'm',
      role: 'ROLE_AGENT',
      parts: [{ data: { value: [1, 2] } }, { data: { value: 'x' } }],
    });
  });

  it('rejects missing, unknown and wrong kinds with exact paths', () => {
    const message = { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
    expectInvalid(
      () => rpc.decodeMessage({ ...message, kind: undefined }, '/params/message'),
      '/params/message/kind',
    );
    expectInvalid(
      () => rpc.decodeMessage({ ...message, parts: [{ text: 'hi' }] }, '/params/message'),
      '/params/message/parts/0/kind',
    );
    expectInvalid(
      () => rpc.decodeMessage({ ...message, parts: [{ kind: 'image', text: 'hi' }] }, '/params/message'),
      '/params/message/parts/0/kind',
    );
    expectInvalid(() => rpc.decodeTask({ ...message, kind: 'message' }, '/result'), '/result/kind');
    expectInvalid(() => rpc.decodeStreamResponse({ kind: 'task-update' }, '/result'), '/result/kind');
    expectInvalid(() => rpc.decodeSendMessageResponse({ kind: 'status-update' }, '/result'), '/result/kind');
    expectInvalid(() => rpc.decodeSendMessageResponse({ task: {} }, '/result'), '/result/kind');
  });

  it('rejects 1.0 and unknown enum spellings', () => {
    const status = (state: unknown): unknown => ({
      kind: 'task',
      id: 't',
      contextId: 'c',
      status: { state },
    });
    expectInvalid(() => rpc.decodeTask(status('TASK_STATE_WORKING'), '/result'), '/result/status/state');
    expectInvalid(() => rpc.decodeTask(status('unknown'), '/result'), '/result/status/state');
    expectInvalid(() => rpc.decodeTask(status(2), '/result'), '/result/status/state');
    expectInvalid(
      () => rpc.decodeTask({ kind: 'task', id: 't', contextId: 'c' }, '/result'),
      '/result/status',
    );
    const message = {
      kind: 'message',
      messageId: 'm',
      role: 'ROLE_USER',
      parts: [{ kind: 'text', text: 'hi' }],
    };
    expectInvalid(() => rpc.decodeMessage(message, '/params/message'), '/params/message/role');
    expectInvalid(
      () => rpc.decodeListTasksRequest({ status: 'TASK_STATE_WORKING' }, '/params'),
      '/params/status',
    );
  });

  it('rejects bad parts, bad files and empty part lists', () => {
    const msg = (parts: unknown): unknown => ({ kind: 'message', messageId: 'm', role: 'user', parts });
    const err = expectInvalid(
      () => rpc.decodeMessage(msg([{ kind: 'file', file: { bytes: 'AAEC', uri: 'https://x' } }]), '/m'),
      '/m/parts/0/file',
    );
    expect(err.message).toContain('both bytes and uri');
    expectInvalid(
      () => rpc.decodeMessage(msg([{ kind: 'file', file: { name: 'a.txt' } }]), '/m'),
      '/m/parts/0/file',
    );
    expectInvalid(() => rpc.decodeMessage(msg([{ kind: 'file' }]), '/m'), '/m/parts/0/file');
    expectInvalid(
      () => rpc.decodeMessage(msg([{ kind: 'file', file: { bytes: 'a*b' } }]), '/m'),
      '/m/parts/0/file/bytes',
    );
    expectInvalid(
      () => rpc.decodeMessage(msg([{ kind: 'file', file: { uri: 7 } }]), '/m'),
      '/m/parts/0/file/uri',
    );
    expectInvalid(() => rpc.decodeMessage(msg([{ kind: 'data', data: [1] }]), '/m'), '/m/parts/0/data');
    expectInvalid(() => rpc.decodeMessage(msg([{ kind: 'data' }]), '/m'), '/m/parts/0/data');
    expectInvalid(() => rpc.decodeMessage(msg([{ kind: 'text', text: 5 }]), '/m'), '/m/parts/0/text');
    expectInvalid(
      () => rpc.decodeMessage(msg([{ kind: 'text', text: 'a', metadata: [] }]), '/m'),
      '/m/parts/0/metadata',
    );
    expectInvalid(() => rpc.decodeMessage(msg([]), '/m'), '/m/parts');
    expectInvalid(() => rpc.decodeMessage(msg(undefined), '/m'), '/m/parts');
    expectInvalid(() => rpc.decodeMessage(msg({ 0: 'a' }), '/m'), '/m/parts');
    const artifact = {
      kind: 'artifact-update',
      taskId: 't',
      contextId: 'c',
      artifact: { artifactId: 'a', parts: [] },
    };
    expectInvalid(() => rpc.decodeStreamResponse(artifact, '/result'), '/result/artifact/parts');
  });

  it('rejects wrong types without coercing', () => {
    const message = { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
    expectInvalid(
      () => rpc.decodeMessage({ ...message, messageId: 1 }, '/p/message'),
      '/p/message/messageId',
    );
    expectInvalid(
      () => rpc.decodeMessage({ ...message, messageId: '' }, '/p/message'),
      '/p/message/messageId',
    );
    expectInvalid(() => rpc.decodeMessage({ ...message, metadata: [] }, '/p/message'), '/p/message/metadata');
    expectInvalid(
      () => rpc.decodeMessage({ ...message, referenceTaskIds: [1] }, '/p'),
      '/p/referenceTaskIds/0',
    );
    expectInvalid(() => rpc.decodeSendMessageRequest({}, '/params'), '/params/message');
    expectInvalid(
      () => rpc.decodeSendMessageRequest({ message, configuration: { blocking: 'false' } }, '/params'),
      '/params/configuration/blocking',
    );
    expectInvalid(
      () => rpc.decodeSendMessageRequest({ message, configuration: { historyLength: '3' } }, '/params'),
      '/params/configuration/historyLength',
    );
    expectInvalid(
      () => rpc.decodeGetTaskRequest({ id: 't', historyLength: 1.5 }, '/params'),
      '/params/historyLength',
    );
    expectInvalid(
      () => rpc.decodeGetTaskRequest({ id: 't', historyLength: -1 }, '/params'),
      '/params/historyLength',
    );
    expectInvalid(() => rpc.decodeGetTaskRequest({}, '/params'), '/params/id');
    expectInvalid(() => rpc.decodeCancelTaskRequest([], '/params'), '/params');
    expectInvalid(
      () =>
        rpc.decodeTaskPushNotificationConfig({ taskId: 't', pushNotificationConfig: { url: 1 } }, '/params'),
      '/params/pushNotificationConfig/url',
    );
    expectInvalid(
      () => rpc.decodeTaskPushNotificationConfig({ taskId: 't' }, '/params'),
      '/params/pushNotificationConfig',
    );
    expectInvalid(
      () =>
        rpc.decodeTaskPushNotificationConfig(
          { taskId: 't', pushNotificationConfig: { url: 'https://h', authentication: { schemes: [] } } },
          '/params',
        ),
      '/params/pushNotificationConfig/authentication/schemes',
    );
    expectInvalid(
      () =>
        rpc.decodeTask(
          { kind: 'task', id: 't', contextId: 'c', status: { state: 'working', timestamp: 'yesterday' } },
          '/r',
        ),
      '/r/status/timestamp',
    );
    expectInvalid(() => rpc.decodeListTaskPushNotificationConfigsResponse({}, '/result'), '/result');
    expectInvalid(
      () =>
        rpc.decodeStreamResponse(
          { kind: 'artifact-update', taskId: 't', contextId: 'c', artifact: { parts: [] } },
          '/r',
        ),
      '/r/artifact/artifactId',
    );
  });
});

describe('0.3 agent card', () => {
  it('encodes the 0.3 card from the canonical card, keeping supportedInterfaces', () => {
    expect(rpc.encodeAgentCard(card)).toEqual({
      protocolVersion: '0.3.0',
      name: 'Dealer agent',
      description: 'Finds cars',
      url: 'https://dealer.example.com/a2a',
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [
        { url: 'https://dealer.example.com/a2a', transport: 'JSONRPC' },
        { url: 'https://dealer.example.com/rest', transport: 'HTTP+JSON' },
      ],
      iconUrl: 'https://dealer.example.com/icon.png',
      provider: { organization: 'Example Motors', url: 'https://example.com' },
      version: '2.1.0',
      documentationUrl: 'https://dealer.example.com/docs',
      capabilities: {
        streaming: true,
        pushNotifications: false,
        extensions: [
          {
            uri: 'https://example.com/ext/aump/v1',
            description: 'mandates',
            required: true,
            params: { a: 1 },
          },
        ],
      },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'key' },
        bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
        oauth: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: 'https://auth.example.com/authorize',
              tokenUrl: 'https://auth.example.com/token',
              refreshUrl: 'https://auth.example.com/refresh',
              scopes: { read: 'Read', write: 'Write' },
            },
          },
          oauth2MetadataUrl: 'https://auth.example.com/.well-known/oauth-authorization-server',
        },
        oidc: {
          type: 'openIdConnect',
          openIdConnectUrl: 'https://auth.example.com/.well-known/openid-configuration',
        },
        mtls: { type: 'mutualTLS', description: 'client certificate' },
      },
      security: [{ oauth: ['read'] }, { apiKey: [], mtls: [] }],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain', 'application/json'],
      skills: [
        {
          id: 'search',
          name: 'Search',
          description: 'Searches the stock',
          tags: ['cars'],
          examples: ['red sedan'],
          inputModes: ['text/plain'],
          outputModes: ['application/json'],
          security: [{ oauth: ['read', 'write'] }],
        },
      ],
      supportsAuthenticatedExtendedCard: true,
      signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2ln', header: { kid: 'k1' } }],
      supportedInterfaces: card.supportedInterfaces,
    });
    // Both 0.3 dialects serve the same card.
    expect(rest.encodeAgentCard(card)).toEqual(rpc.encodeAgentCard(card));
  });

  it('round-trips the canonical card through the 0.3 form', () => {
    expect(rpc.decodeAgentCard(wire(rpc.encodeAgentCard(card)), '')).toEqual(card);
    expect(rest.decodeAgentCard(wire(rest.encodeAgentCard(card)), '')).toEqual(card);
  });

  it('falls back to the first interface, and drops what 0.3 cannot say', () => {
    const only10: AgentCard = {
      ...card,
      supportedInterfaces: [
        { url: 'https://x.example.com', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
      securitySchemes: {
        device: {
          oauth2SecurityScheme: {
            flows: {
              deviceCode: { deviceAuthorizationUrl: 'https://a/d', tokenUrl: 'https://a/t', scopes: {} },
              authorizationCode: {
                authorizationUrl: 'https://a/a',
                tokenUrl: 'https://a/t',
                scopes: {},
                pkceRequired: true,
              },
            },
          },
        },
      },
      capabilities: {},
    };
    const encoded = rpc.encodeAgentCard(only10) as Record<string, unknown>;
    expect(encoded.url).toBe('https://x.example.com');
    expect(encoded.preferredTransport).toBe('HTTP+JSON');
    expect(encoded.additionalInterfaces).toBeUndefined();
    expect(encoded.supportsAuthenticatedExtendedCard).toBeUndefined();
    expect(encoded.capabilities).toEqual({});
    expect(encoded.securitySchemes).toEqual({
      device: {
        type: 'oauth2',
        flows: {
          authorizationCode: { authorizationUrl: 'https://a/a', tokenUrl: 'https://a/t', scopes: {} },
        },
      },
    });
  });

  it('decodes a plain 0.3 card, building the interfaces from url and additionalInterfaces', () => {
    const wireCard = {
      protocolVersion: '0.3.0',
      name: 'Recipe Agent',
      description: 'Cooks',
      url: 'https://r.example.com/a2a',
      additionalInterfaces: [
        { url: 'https://r.example.com/a2a', transport: 'JSONRPC' },
        { url: 'https://r.example.com/grpc', transport: 'GRPC' },
      ],
      version: '1.0.0',
      capabilities: { streaming: true, stateTransitionHistory: true },
      securitySchemes: {
        key: { type: 'apiKey', in: 'query', name: 'k' },
        multi: {
          type: 'oauth2',
          flows: {
            clientCredentials: { tokenUrl: 'https://a/t', scopes: { s: 'S' } },
            password: { tokenUrl: 'https://a/p', scopes: {} },
            implicit: { authorizationUrl: 'https://a/i', refreshUrl: 'https://a/r', scopes: {} },
          },
        },
      },
      security: [{ key: [] }],
      defaultInputModes: [],
      defaultOutputModes: ['text/plain'],
      skills: [],
      supportsAuthenticatedExtendedCard: false,
    };
    expect(rpc.decodeAgentCard(wireCard, '')).toEqual({
      name: 'Recipe Agent',
      description: 'Cooks',
      // preferredTransport defaults to JSONRPC (digest §12 item 23); the duplicate main pair is listed once.
      supportedInterfaces: [
        { url: 'https://r.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        { url: 'https://r.example.com/grpc', protocolBinding: 'GRPC', protocolVersion: '0.3' },
      ],
      version: '1.0.0',
      capabilities: { streaming: true, extendedAgentCard: false },
      securitySchemes: {
        key: { apiKeySecurityScheme: { location: 'query', name: 'k' } },
        multi: {
          oauth2SecurityScheme: {
            flows: {
              clientCredentials: { tokenUrl: 'https://a/t', scopes: { s: 'S' } },
              password: { tokenUrl: 'https://a/p', scopes: {} },
              implicit: { authorizationUrl: 'https://a/i', refreshUrl: 'https://a/r', scopes: {} },
            },
          },
        },
      },
      securityRequirements: [{ schemes: { key: { list: [] } } }],
      defaultInputModes: [],
      defaultOutputModes: ['text/plain'],
      skills: [],
    });
  });

  it('rejects malformed cards with exact paths', () => {
    const base = rpc.encodeAgentCard(card) as Record<string, unknown>;
    expectInvalid(() => rpc.decodeAgentCard({ ...base, url: undefined }, ''), '/url');
    expectInvalid(() => rpc.decodeAgentCard({ ...base, capabilities: undefined }, ''), '/capabilities');
    expectInvalid(
      () =>
        rpc.decodeAgentCard(
          { ...base, securitySchemes: { x: { type: 'apiKey', location: 'header', name: 'n' } } },
          '',
        ),
      '/securitySchemes/x/in',
    );
    expectInvalid(
      () => rpc.decodeAgentCard({ ...base, securitySchemes: { x: { type: 'magic' } } }, ''),
      '/securitySchemes/x/type',
    );
    expectInvalid(
      () => rpc.decodeAgentCard({ ...base, securitySchemes: { x: { apiKeySecurityScheme: {} } } }, ''),
      '/securitySchemes/x/type',
    );
    expectInvalid(
      () => rpc.decodeAgentCard({ ...base, security: [{ oauth: 'read' }] }, ''),
      '/security/0/oauth',
    );
    expectInvalid(
      () => rpc.decodeAgentCard({ ...base, skills: [{ id: 's', name: 'n', description: 'd' }] }, ''),
      '/skills/0/tags',
    );
    expectInvalid(
      () => rpc.decodeAgentCard({ ...base, additionalInterfaces: [{ url: 'https://x' }] }, ''),
      '/additionalInterfaces/0/transport',
    );
  });
});

describe('0.3 REST codec', () => {
  it('identifies itself', () => {
    expect(rest.dialect).toBe('0.3-rest');
    expect(rest.version).toBe('0.3');
  });

  it('round-trips tasks, messages, send results and every stream event', () => {
    expect(rest.decodeTask(wire(rest.encodeTask(restTask)), '')).toEqual(restTask);
    for (const response of [{ task: restTask }, { message: agentMessage }]) {
      expect(rest.decodeSendMessageResponse(wire(rest.encodeSendMessageResponse(response)), '')).toEqual(
        response,
      );
    }
    const events: StreamResponse[] = [
      { task: restTask },
      { message: agentMessage },
      { statusUpdate },
      { artifactUpdate },
    ];
    for (const event of events) {
      expect(rest.decodeStreamResponse(wire(rest.encodeStreamResponse(event)), '')).toEqual(event);
    }
  });

  it('encodes ProtoJSON of the 0.3 proto: content, proto enums, file and data wrappers, no kind', () => {
    const canceled: Task = {
      ...restTask,
      status: { state: 'TASK_STATE_CANCELED' },
      history: [protoSafe(userMessage)],
    };
    expect(rest.encodeTask(canceled)).toEqual({
      id: 'task-1',
      contextId: 'ctx-1',
      status: { state: 'TASK_STATE_CANCELLED' },
      history: [
        {
          messageId: 'msg-1',
          role: 'ROLE_USER',
          content: [
            { text: 'Find me a red sedan' },
            { file: { fileWithBytes: 'aGVsbG8gd29ybGQ=', mimeType: 'text/plain', name: 'hello.txt' } },
            {
              file: {
                fileWithUri: 'https://example.com/brochure.pdf',
                mimeType: 'application/pdf',
                name: 'brochure.pdf',
              },
            },
            {
              data: { data: { make: 'Volvo', budget: 30000, features: ['awd', null] } },
              metadata: { schema: 'car/v1' },
            },
          ],
          contextId: 'ctx-1',
          taskId: 'task-1',
          extensions: ['https://example.com/ext/aump/v1'],
          metadata: { trace: 'abc' },
        },
      ],
      artifacts: [
        {
          artifactId: 'art-1',
          name: 'shortlist',
          description: 'Three matching cars',
          parts: [
            { data: { data: { cars: ['a', 'b', 'c'] } } },
            { file: { fileWithUri: 'https://example.com/a.png', mimeType: 'image/png' } },
          ],
          metadata: { rank: 1 },
          extensions: ['https://example.com/ext/aap/v0.1'],
        },
      ],
      metadata: { dealer: 7 },
    });
    // The 0.3 proto Message has no referenceTaskIds: it is dropped rather than failing strict parsers.
    expect(rest.encodeMessage(userMessage)).not.toHaveProperty('referenceTaskIds');
    expect(rest.encodeSendMessageResponse({ message: agentMessage })).toEqual({
      message: {
        messageId: 'msg-2',
        role: 'ROLE_AGENT',
        content: [{ text: 'Working on it', metadata: { lang: 'en' } }, { file: { fileWithBytes: 'AAEC' } }],
        contextId: 'ctx-1',
        taskId: 'task-1',
      },
    });
    expect(rest.encodeStreamResponse({ statusUpdate })).toEqual({
      statusUpdate: {
        taskId: 'task-1',
        contextId: 'ctx-1',
        status: { state: 'TASK_STATE_WORKING', timestamp: '2025-08-01T10:00:01.000Z' },
        final: false,
        metadata: { step: 2 },
      },
    });
    expect(rest.encodeStreamResponse({ artifactUpdate })).toEqual({
      artifactUpdate: {
        taskId: 'task-1',
        contextId: 'ctx-1',
        artifact: { artifactId: 'art-2', parts: [{ text: 'chunk 1' }] },
        append: true,
        lastChunk: false,
        metadata: { seq: 1 },
      },
    });
  });

  it('sets final from the state in statusUpdate', () => {
    for (const state of TASK_STATES) {
      const event: StreamResponse = { statusUpdate: { taskId: 't', contextId: 'c', status: { state } } };
      const encoded = rest.encodeStreamResponse(event) as { statusUpdate: { final: boolean } };
      expect(encoded.statusUpdate.final, state).toBe(FINAL[state]);
      expect(rest.decodeStreamResponse(wire(encoded), '')).toEqual(event);
    }
  });

  it('decodes hand-written ProtoJSON, including enum numbers and proto field names', () => {
    const wireTask = {
      id: 't',
      contextId: 'c',
      status: {
        state: 5,
        update: { messageId: 'm', role: 2, content: [{ text: 'stopped' }] },
        timestamp: '2025-08-01T10:00:00Z',
      },
      history: [
        {
          messageId: 'u',
          role: 'ROLE_USER',
          content: [{ file: { fileWithUri: 'https://f', mimeType: '' } }],
          taskId: '',
        },
      ],
      kind: 'task',
    };
    const expected: Task = {
      id: 't',
      contextId: 'c',
      status: {
        state: 'TASK_STATE_CANCELED',
        message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'stopped' }] },
        timestamp: '2025-08-01T10:00:00Z',
      },
      // ProtoJSON "" is the unset default: no mediaType, no taskId.
      history: [{ messageId: 'u', role: 'ROLE_USER', parts: [{ url: 'https://f' }] }],
    };
    expect(rest.decodeTask(wireTask, '')).toEqual(expected);
    expect(rest.decodeSendMessageResponse({ msg: wireTask.status.update }, '')).toEqual({
      message: expected.status.message,
    });
    expect(rest.decodeStreamResponse({ msg: wireTask.status.update }, '')).toEqual({
      message: expected.status.message,
    });
    expect(
      rest.decodeStreamResponse({ task: { ...wireTask, status: { state: 'TASK_STATE_CANCELLED' } } }, ''),
    ).toEqual({
      task: { ...expected, status: { state: 'TASK_STATE_CANCELED' } },
    });
    expect(
      rest.decodeSendMessageRequest({ request: { messageId: 'm', role: 1, content: [{ text: 'hi' }] } }, ''),
    ).toEqual({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] } });
  });

  it('maps the 0.3 proto SendMessageRequest, with proto3 blocking semantics', () => {
    const body = {
      message: { messageId: 'm', role: 'ROLE_USER', content: [{ text: 'hi' }] },
      configuration: {
        acceptedOutputModes: ['text/plain'],
        pushNotification: { url: 'https://hook', authentication: { schemes: ['Basic'], credentials: '' } },
        historyLength: '4',
        blocking: true,
      },
      metadata: { m: 1 },
    };
    expect(rest.decodeSendMessageRequest(body, '')).toEqual({
      message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
      configuration: {
        acceptedOutputModes: ['text/plain'],
        historyLength: 4,
        taskPushNotificationConfig: { taskId: '', url: 'https://hook', authentication: { scheme: 'Basic' } },
      },
      metadata: { m: 1 },
    });
    // proto3 bool: an omitted `blocking` IS false, so a configuration without it asks not to block.
    expect(rest.decodeSendMessageRequest({ ...body, configuration: {} }, '').configuration).toEqual({
      returnImmediately: true,
    });
    expect(rest.decodeSendMessageRequest({ message: body.message }, '').configuration).toBeUndefined();
    const canonical: SendMessageRequest = { ...sendRequest, message: protoSafe(sendRequest.message) };
    const encoded = rest.encodeSendMessageRequest(canonical);
    expect(encoded).toMatchObject({
      configuration: {
        blocking: false,
        historyLength: 5,
        pushNotification: { url: 'https://client.example.com/hook' },
      },
    });
    expect(encoded).not.toHaveProperty('configuration.pushNotificationConfig');
    expect(rest.decodeSendMessageRequest(wire(encoded), '')).toEqual(canonical);
    const blocking = { message: agentMessage, configuration: { acceptedOutputModes: ['text/plain'] } };
    expect(rest.decodeSendMessageRequest(wire(rest.encodeSendMessageRequest(blocking)), '')).toEqual(
      blocking,
    );
  });

  it('maps push configs to {name, pushNotificationConfig} and lists to {configs, nextPageToken}', () => {
    const wireConfig = {
      name: 'tasks/task-1/pushNotificationConfigs/cfg-1',
      pushNotificationConfig: {
        id: 'cfg-1',
        url: 'https://client.example.com/hook',
        token: 'tok-1',
        authentication: { schemes: ['Bearer'], credentials: 'secret' },
      },
    };
    expect(rest.encodeTaskPushNotificationConfig(pushConfig)).toEqual(wireConfig);
    expect(rest.decodeTaskPushNotificationConfig(wireConfig, '')).toEqual(pushConfig);
    // The binding adds the task id from the URL path; the config id may come from the name only.
    expect(
      rest.decodeTaskPushNotificationConfig(
        {
          taskId: 'task-1',
          name: 'tasks/task-1/pushNotificationConfigs/c9',
          pushNotificationConfig: { url: 'https://h' },
        },
        '',
      ),
    ).toEqual({ taskId: 'task-1', id: 'c9', url: 'https://h' });
    expect(
      rest.decodeTaskPushNotificationConfig(
        { taskId: 't', pushNotificationConfig: { url: 'https://h' } },
        '',
      ),
    ).toEqual({
      taskId: 't',
      url: 'https://h',
    });
    const list = rest.encodeListTaskPushNotificationConfigsResponse({
      configs: [pushConfig],
      nextPageToken: 'n',
    });
    expect(list).toEqual({ configs: [wireConfig], nextPageToken: 'n' });
    expect(rest.decodeListTaskPushNotificationConfigsResponse(wire(list), '')).toEqual({
      configs: [pushConfig],
      nextPageToken: 'n',
    });
    expect(rest.decodeListTaskPushNotificationConfigsResponse({}, '')).toEqual({ configs: [] });
    expect(rest.decodeListTaskPushNotificationConfigsResponse([wireConfig], '')).toEqual({
      configs: [pushConfig],
    });
  });

  it('reads the route parameters of the path-only calls', () => {
    expect(rest.decodeGetTaskRequest({ id: 't', historyLength: 3 }, '')).toEqual({
      id: 't',
      historyLength: 3,
    });
    expect(rest.decodeGetTaskRequest({ id: 't', historyLength: 0 }, '')).toEqual({ id: 't' });
    expect(rest.encodeGetTaskRequest({ id: 't', historyLength: 3 })).toEqual({ id: 't', historyLength: 3 });
    expect(rest.decodeCancelTaskRequest({ id: 't' }, '')).toEqual({ id: 't' });
    expect(rest.decodeSubscribeToTaskRequest({ id: 't' }, '')).toEqual({ id: 't' });
    expect(rest.decodeTaskPushNotificationConfigRef({ taskId: 't', id: 'c' }, '')).toEqual({
      taskId: 't',
      id: 'c',
    });
    expect(rest.encodeTaskPushNotificationConfigRef({ taskId: 't', id: 'c' })).toEqual({
      taskId: 't',
      id: 'c',
    });
    expect(
      rest.decodeListTaskPushNotificationConfigsRequest({ taskId: 't', pageSize: 2, pageToken: 'p' }, ''),
    ).toEqual({
      taskId: 't',
      pageSize: 2,
      pageToken: 'p',
    });
    const listTasks = { status: 'TASK_STATE_CANCELED' as const, pageSize: 5, includeArtifacts: false };
    expect(rest.encodeListTasksRequest(listTasks)).toEqual({ ...listTasks, status: 'TASK_STATE_CANCELLED' });
    expect(
      rest.decodeListTasksRequest(
        { status: 'TASK_STATE_CANCELLED', pageSize: 5, includeArtifacts: false },
        '',
      ),
    ).toEqual(listTasks);
    const response = { tasks: [restTask], nextPageToken: 'x', pageSize: 1, totalSize: 9 };
    expect(rest.decodeListTasksResponse(wire(rest.encodeListTasksResponse(response)), '')).toEqual(response);
  });

  it('rejects JSON-RPC and 1.0 spellings, broken oneofs and empty content with exact paths', () => {
    const message = { messageId: 'm', role: 'ROLE_USER', content: [{ text: 'hi' }] };
    const task = (state: unknown): unknown => ({ id: 't', contextId: 'c', status: { state } });
    expectInvalid(() => rest.decodeTask(task('TASK_STATE_CANCELED'), ''), '/status/state');
    expectInvalid(() => rest.decodeTask(task('working'), ''), '/status/state');
    expectInvalid(() => rest.decodeTask(task(0), ''), '/status/state');
    expectInvalid(() => rest.decodeTask(task('TASK_STATE_UNSPECIFIED'), ''), '/status/state');
    expectInvalid(() => rest.decodeMessage({ ...message, role: 'user' }, '/message'), '/message/role');
    expectInvalid(() => rest.decodeMessage({ ...message, content: [] }, '/message'), '/message/content');
    // `parts` is the 1.0 / JSON-RPC member; the 0.3 proto Message says `content`.
    expectInvalid(
      () => rest.decodeMessage({ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] }, ''),
      '/content',
    );
    expectInvalid(
      () => rest.decodeMessage({ ...message, content: [{ text: 'a', data: { data: {} } }] }, ''),
      '/content/0',
    );
    expectInvalid(() => rest.decodeMessage({ ...message, content: [{ metadata: {} }] }, ''), '/content/0');
    expectInvalid(
      () =>
        rest.decodeMessage(
          { ...message, content: [{ file: { fileWithUri: 'https://f', fileWithBytes: 'AAEC' } }] },
          '',
        ),
      '/content/0/file',
    );
    expectInvalid(
      () => rest.decodeMessage({ ...message, content: [{ file: { bytes: 'AAEC' } }] }, ''),
      '/content/0/file',
    );
    expectInvalid(
      () => rest.decodeMessage({ ...message, content: [{ data: { make: 'x' } }] }, ''),
      '/content/0/data/data',
    );
    expectInvalid(
      () => rest.decodeMessage({ ...message, content: [{ data: { data: 'x' } }] }, ''),
      '/content/0/data/data',
    );
    expectInvalid(
      () => rest.decodeMessage({ ...message, content: [{ kind: 'text', text: 1 }] }, ''),
      '/content/0/text',
    );
    expectInvalid(() => rest.decodeSendMessageResponse({}, '/r'), '/r');
    expectInvalid(() => rest.decodeSendMessageResponse({ task: {}, message: {} }, '/r'), '/r');
    expectInvalid(() => rest.decodeStreamResponse({ kind: 'status-update' }, '/r'), '/r');
    expectInvalid(
      () => rest.decodeStreamResponse({ statusUpdate: { taskId: 't', contextId: 'c' } }, '/r'),
      '/r/statusUpdate/status',
    );
    expectInvalid(
      () => rest.decodeSendMessageRequest({ message, configuration: { historyLength: '4.5' } }, ''),
      '/configuration/historyLength',
    );
    expectInvalid(
      () => rest.decodeSendMessageRequest({ message, configuration: { blocking: 'true' } }, ''),
      '/configuration/blocking',
    );
  });

  it('rejects push-config names that are malformed or contradict the route', () => {
    const inner = { url: 'https://h' };
    expectInvalid(
      () => rest.decodeTaskPushNotificationConfig({ name: 'task/t', pushNotificationConfig: inner }, '/b'),
      '/b/name',
    );
    expectInvalid(
      () => rest.decodeTaskPushNotificationConfig({ name: 7, pushNotificationConfig: inner }, '/b'),
      '/b/name',
    );
    expectInvalid(
      () =>
        rest.decodeTaskPushNotificationConfig(
          { taskId: 'a', name: 'tasks/b', pushNotificationConfig: inner },
          '/b',
        ),
      '/b/name',
    );
    expectInvalid(
      () =>
        rest.decodeTaskPushNotificationConfig(
          { name: 'tasks/a/pushNotificationConfigs/c1', pushNotificationConfig: { ...inner, id: 'c2' } },
          '/b',
        ),
      '/b/pushNotificationConfig/id',
    );
    expectInvalid(
      () => rest.decodeTaskPushNotificationConfig({ name: 'tasks/a' }, '/b'),
      '/b/pushNotificationConfig',
    );
    expectInvalid(() => rest.decodeTaskPushNotificationConfigRef({ id: 'c' }, '/p'), '/p/taskId');
  });
});
