import { describe, it, expect } from 'vitest';
import { v0_3JsonRpcCodec as rpc } from '../../src/protocol/v0_3/index.js';
import { TASK_STATES } from '../../src/protocol/model.js';
import type { Message, StreamResponse, TaskState } from '../../src/protocol/model.js';
import { expectInvalid } from './expect-invalid.js';
import {
  wire,
  userMessage,
  agentMessage,
  task,
  statusUpdate,
  artifactUpdate,
  pushConfig,
  sendRequest,
  FINAL,
} from './v0_3-fixtures.js';

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
