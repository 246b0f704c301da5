import { describe, it, expect } from 'vitest';
import { v0_3RestCodec as rest } from '../../src/protocol/v0_3/index.js';
import { TASK_STATES } from '../../src/protocol/model.js';
import type { SendMessageRequest, StreamResponse, Task } from '../../src/protocol/model.js';
import { expectInvalid } from './expect-invalid.js';
import {
  wire,
  userMessage,
  agentMessage,
  statusUpdate,
  artifactUpdate,
  pushConfig,
  sendRequest,
  FINAL,
  protoSafe,
  restTask,
} from './v0_3-fixtures.js';

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
    // The 0.3.x proto copies name field 5 `parts`: read too, but not beside `content` (decision 0143).
    expect(
      rest.decodeMessage({ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] }, '').parts,
    ).toEqual([{ text: 'hi' }]);
    expectInvalid(() => rest.decodeMessage({ ...message, parts: [{ text: 'hi' }] }, ''), '/parts');
    // Outside a send request a message has no default role.
    expectInvalid(() => rest.decodeMessage({ messageId: 'm', content: [{ text: 'hi' }] }, ''), '/role');
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
