import { describe, it, expect } from 'vitest';
import { v1_0Codec as codec } from '../../src/protocol/v1_0/index.js';
import { clone } from './expect-invalid.js';
import { userMessage, agentMessage, task, agentCard } from './v1_0-fixtures.js';

describe('v1_0Codec identity', () => {
  it('is the 1.0 dialect', () => {
    expect(codec.dialect).toBe('1.0');
    expect(codec.version).toBe('1.0');
  });
});

describe('round-trips', () => {
  it('task with history, artifacts and every part kind', () => {
    const decoded = codec.decodeTask(clone(task), '');
    expect(decoded.history?.[0]?.parts.map((p) => Object.keys(p)[0])).toEqual(['text', 'raw', 'url', 'data']);
    expect(codec.encodeTask(decoded)).toEqual(task);
  });

  it('messages, including null and array data parts', () => {
    const decoded = codec.decodeMessage(clone(agentMessage), '/message');
    expect(decoded.parts[2]).toEqual({ data: null });
    expect(codec.encodeMessage(decoded)).toEqual(agentMessage);
    expect(codec.encodeMessage(codec.decodeMessage(clone(userMessage), ''))).toEqual(userMessage);
  });

  it('send responses', () => {
    for (const wire of [{ task }, { message: agentMessage }]) {
      expect(
        codec.encodeSendMessageResponse(codec.decodeSendMessageResponse(clone(wire), '/result')),
      ).toEqual(wire);
    }
  });

  it('stream events of every kind', () => {
    const events = [
      { task: { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_SUBMITTED' } } },
      { message: agentMessage },
      {
        statusUpdate: {
          taskId: 'task-1',
          contextId: 'ctx-1',
          status: { state: 'TASK_STATE_INPUT_REQUIRED', timestamp: '2026-03-12T10:00:01.000Z' },
          metadata: { step: 2 },
        },
      },
      {
        artifactUpdate: {
          taskId: 'task-1',
          contextId: 'ctx-1',
          artifact: { artifactId: 'art-1', parts: [{ text: 'chunk' }] },
          append: true,
          lastChunk: false,
          metadata: { seq: 3 },
        },
      },
    ];
    for (const wire of events) {
      expect(codec.encodeStreamResponse(codec.decodeStreamResponse(clone(wire), '/result'))).toEqual(wire);
    }
  });

  it('agent card with every security scheme and flow kind', () => {
    const decoded = codec.decodeAgentCard(clone(agentCard), '');
    expect(codec.encodeAgentCard(decoded)).toEqual(agentCard);
  });

  it('list responses', () => {
    const tasks = { tasks: [task], nextPageToken: 'next-2', pageSize: 1, totalSize: 7 };
    expect(codec.encodeListTasksResponse(codec.decodeListTasksResponse(clone(tasks), ''))).toEqual(tasks);
    const last = { tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 };
    expect(codec.encodeListTasksResponse(codec.decodeListTasksResponse(clone(last), ''))).toEqual(last);
    const configs = {
      configs: [
        {
          tenant: 't',
          id: 'cfg-1',
          taskId: 'task-1',
          url: 'https://hooks.example.com/a2a',
          token: 'tok',
          authentication: { scheme: 'Bearer', credentials: 'secret' },
        },
        { id: 'cfg-2', taskId: 'task-1', url: 'https://hooks.example.com/b' },
      ],
      nextPageToken: '',
    };
    expect(
      codec.encodeListTaskPushNotificationConfigsResponse(
        codec.decodeListTaskPushNotificationConfigsResponse(clone(configs), ''),
      ),
    ).toEqual(configs);
  });

  it('requests', () => {
    const send = {
      tenant: 'north',
      message: userMessage,
      configuration: {
        acceptedOutputModes: ['application/json'],
        taskPushNotificationConfig: {
          url: 'https://hooks.example.com/a2a',
          authentication: { scheme: 'Bearer' },
        },
        historyLength: 0,
        returnImmediately: true,
      },
      metadata: { origin: 'test' },
    };
    expect(codec.encodeSendMessageRequest(codec.decodeSendMessageRequest(clone(send), '/params'))).toEqual(
      send,
    );
    const get = { tenant: 't', id: 'task-1', historyLength: 5 };
    expect(codec.encodeGetTaskRequest(codec.decodeGetTaskRequest(clone(get), '/params'))).toEqual(get);
    const list = {
      tenant: 't',
      contextId: 'ctx-1',
      status: 'TASK_STATE_WORKING',
      pageSize: 100,
      pageToken: 'p2',
      historyLength: 2,
      statusTimestampAfter: '2026-01-01T00:00:00Z',
      includeArtifacts: true,
    };
    expect(codec.encodeListTasksRequest(codec.decodeListTasksRequest(clone(list), '/params'))).toEqual(list);
    const cancel = { id: 'task-1', metadata: { reason: 'user' } };
    expect(codec.encodeCancelTaskRequest(codec.decodeCancelTaskRequest(clone(cancel), '/params'))).toEqual(
      cancel,
    );
    const sub = { tenant: 't', id: 'task-1' };
    expect(
      codec.encodeSubscribeToTaskRequest(codec.decodeSubscribeToTaskRequest(clone(sub), '/params')),
    ).toEqual(sub);
    const config = { taskId: 'task-1', url: 'https://hooks.example.com/a2a', token: 'tok' };
    expect(
      codec.encodeTaskPushNotificationConfig(
        codec.decodeTaskPushNotificationConfig(clone(config), '/params'),
      ),
    ).toEqual(config);
    const ref = { tenant: 't', taskId: 'task-1', id: 'cfg-1' };
    expect(
      codec.encodeTaskPushNotificationConfigRef(
        codec.decodeTaskPushNotificationConfigRef(clone(ref), '/params'),
      ),
    ).toEqual(ref);
    const listConfigs = { taskId: 'task-1', pageSize: 10, pageToken: 'p' };
    expect(
      codec.encodeListTaskPushNotificationConfigsRequest(
        codec.decodeListTaskPushNotificationConfigsRequest(clone(listConfigs), '/params'),
      ),
    ).toEqual(listConfigs);
  });
});

describe('encoding', () => {
  it('writes only known members, never kind, never undefined', () => {
    const canonical = {
      kind: 'task',
      id: 'task-1',
      contextId: 'ctx-1',
      status: { state: 'TASK_STATE_WORKING' as const, final: true, timestamp: undefined },
      history: [
        {
          kind: 'message',
          messageId: 'm',
          role: 'ROLE_USER' as const,
          parts: [{ kind: 'text', text: 'hi' }],
        },
      ],
      extra: 1,
    };
    // Not a Task: members a loose producer might leave (kind, an undefined, an unknown one).
    const wire = codec.encodeTask(canonical as unknown as Parameters<typeof codec.encodeTask>[0]);
    expect(wire).toEqual({
      id: 'task-1',
      contextId: 'ctx-1',
      status: { state: 'TASK_STATE_WORKING' },
      history: [{ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
    });
    expect(JSON.stringify(wire)).not.toContain('kind');
    expect(Object.keys((wire as { status: object }).status)).toEqual(['state']);
  });

  it('keeps a part to one content member', () => {
    expect(
      codec.encodeMessage({ messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'a', url: 'u' }] }),
    ).toEqual({
      messageId: 'm',
      role: 'ROLE_AGENT',
      parts: [{ text: 'a' }],
    });
  });

  it('always writes every ListTasksResponse field and omits an empty push taskId', () => {
    expect(
      codec.encodeListTasksResponse({ tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 }),
    ).toEqual({
      tasks: [],
      nextPageToken: '',
      pageSize: 50,
      totalSize: 0,
    });
    expect(codec.encodeTaskPushNotificationConfig({ taskId: '', url: 'https://h' })).toEqual({
      url: 'https://h',
    });
  });

  it('emits security requirements in the proto form', () => {
    const card = codec.decodeAgentCard(
      { ...clone(agentCard), securityRequirements: [{ oauthCode: ['read'] }] },
      '',
    );
    expect((codec.encodeAgentCard(card) as { securityRequirements: unknown }).securityRequirements).toEqual([
      { schemes: { oauthCode: { list: ['read'] } } },
    ]);
  });
});
