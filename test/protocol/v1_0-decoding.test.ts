import { describe, it, expect } from 'vitest';
import { v1_0Codec as codec } from '../../src/protocol/v1_0/index.js';
import { expectInvalid, clone } from './expect-invalid.js';
import { userMessage, agentMessage, task, agentCard } from './v1_0-fixtures.js';

describe('lenient where ProtoJSON says so', () => {
  it('accepts enum numbers', () => {
    const m = codec.decodeMessage({ messageId: 'm', role: 2, parts: [{ text: 'x' }] }, '');
    expect(m.role).toBe('ROLE_AGENT');
    const t = codec.decodeTask({ id: 't', status: { state: 8 } }, '');
    expect(t.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
    expect(codec.decodeTask({ id: 't', status: { state: 3 } }, '').status.state).toBe('TASK_STATE_COMPLETED');
    expect(codec.decodeTask({ id: 't', status: { state: 5 } }, '').status.state).toBe('TASK_STATE_CANCELED');
  });

  it('ignores unknown fields (A2A 1.0 §5.7)', () => {
    const t = codec.decodeTask(
      { id: 't', contextId: 'c', kind: 'task', status: { state: 1, extra: true } },
      '',
    );
    expect(t).toEqual({ id: 't', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' } });
  });

  it('reads proto3 defaults as absent', () => {
    const m = codec.decodeMessage(
      { messageId: 'm', role: 1, parts: [{ text: '' }], contextId: '', taskId: '' },
      '',
    );
    expect(m).toEqual({ messageId: 'm', role: 'ROLE_USER', parts: [{ text: '' }] });
    const req = codec.decodeListTasksRequest(
      { tenant: '', status: 'TASK_STATE_UNSPECIFIED', pageToken: '' },
      '',
    );
    expect(req).toEqual({});
    expect(codec.decodeListTasksRequest({ status: 0 }, '')).toEqual({});
    const resp = codec.decodeListTasksResponse({}, '');
    expect(resp).toEqual({ tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 });
    expect(codec.decodeListTaskPushNotificationConfigsResponse({}, '')).toEqual({ configs: [] });
  });

  it('decodes a push config without taskId as an empty taskId', () => {
    expect(codec.decodeTaskPushNotificationConfig({ url: 'https://h' }, '')).toEqual({
      taskId: '',
      url: 'https://h',
    });
  });

  it('accepts the prose security form and the `security` name (decision 0008)', () => {
    const wire = clone(agentCard) as Record<string, unknown>;
    delete wire.securityRequirements;
    wire.security = [{ oauthCode: ['read', 'write'], apiKey: [] }];
    const card = codec.decodeAgentCard(wire, '');
    expect(card.securityRequirements).toEqual([
      { schemes: { oauthCode: { list: ['read', 'write'] }, apiKey: { list: [] } } },
    ]);
    expect(card).not.toHaveProperty('security');
  });

  it('keeps a scheme named __proto__ as a plain key', () => {
    const wire = JSON.parse('{"schemes":{"__proto__":{"list":["x"]}}}') as unknown;
    const card = codec.decodeAgentCard({ ...clone(agentCard), securityRequirements: [wire] }, '');
    const schemes = card.securityRequirements?.[0]?.schemes as object;
    expect(Object.getPrototypeOf(schemes)).toBe(Object.prototype);
    expect(Object.keys(schemes)).toEqual(['__proto__']);
  });
});

describe('rejection with exact paths', () => {
  const send = (message: unknown, extra: Record<string, unknown> = {}) =>
    codec.decodeSendMessageRequest({ message, ...extra }, '/params');
  const msg = (over: Record<string, unknown>) => ({ ...clone(userMessage), ...over });

  it('wrong types', () => {
    expectInvalid(() => codec.decodeSendMessageRequest('hello', '/params'), '/params');
    expectInvalid(() => send(msg({ messageId: 5 })), '/params/message/messageId');
    expectInvalid(() => send(msg({ parts: { text: 'x' } })), '/params/message/parts');
    expectInvalid(() => send(msg({ parts: ['x'] })), '/params/message/parts/0');
    expectInvalid(() => send(msg({ parts: [{ text: 1 }] })), '/params/message/parts/0/text');
    expectInvalid(() => send(msg({ metadata: [1] })), '/params/message/metadata');
    expectInvalid(() => send(msg({ referenceTaskIds: ['a', 2] })), '/params/message/referenceTaskIds/1');
    expectInvalid(
      () => send(msg({ parts: [{ text: 'a', filename: 3 }] })),
      '/params/message/parts/0/filename',
    );
    expectInvalid(
      () => send(userMessage, { configuration: { returnImmediately: 'yes' } }),
      '/params/configuration/returnImmediately',
    );
    expectInvalid(
      () => send(userMessage, { configuration: { historyLength: '3' } }),
      '/params/configuration/historyLength',
    );
    expectInvalid(
      () => send(userMessage, { configuration: { historyLength: -1 } }),
      '/params/configuration/historyLength',
    );
    expectInvalid(
      () =>
        send(userMessage, {
          configuration: { taskPushNotificationConfig: { url: 'https://h', authentication: {} } },
        }),
      '/params/configuration/taskPushNotificationConfig/authentication/scheme',
    );
    expectInvalid(
      () => codec.decodeGetTaskRequest({ id: 't', historyLength: 1.5 }, '/params'),
      '/params/historyLength',
    );
    expectInvalid(
      () => codec.decodeListTasksRequest({ includeArtifacts: 1 }, '/params'),
      '/params/includeArtifacts',
    );
  });

  it('unknown enum values', () => {
    expectInvalid(() => send(msg({ role: 'user' })), '/params/message/role');
    expectInvalid(() => send(msg({ role: 'ROLE_UNSPECIFIED' })), '/params/message/role');
    expectInvalid(() => send(msg({ role: 0 })), '/params/message/role');
    expectInvalid(() => send(msg({ role: 3 })), '/params/message/role');
    expectInvalid(
      () => codec.decodeTask({ id: 't', status: { state: 'completed' } }, '/result'),
      '/result/status/state',
    );
    expectInvalid(
      () => codec.decodeTask({ id: 't', status: { state: 'TASK_STATE_UNSPECIFIED' } }, '/result'),
      '/result/status/state',
    );
    expectInvalid(
      () => codec.decodeTask({ id: 't', status: { state: 0 } }, '/result'),
      '/result/status/state',
    );
    expectInvalid(
      () => codec.decodeTask({ id: 't', status: { state: 9 } }, '/result'),
      '/result/status/state',
    );
    expectInvalid(() => codec.decodeListTasksRequest({ status: 'working' }, '/params'), '/params/status');
    const err = expectInvalid(() => send(msg({ role: 'user' })), '/params/message/role');
    expect(err.violations?.[0]?.description).toContain('ROLE_USER');
  });

  it('missing required fields', () => {
    expectInvalid(() => codec.decodeSendMessageRequest({}, '/params'), '/params/message');
    const { messageId: _m, ...noId } = userMessage;
    expectInvalid(() => send(noId), '/params/message/messageId');
    const { role: _r, ...noRole } = userMessage;
    expectInvalid(() => send(noRole), '/params/message/role');
    const { parts: _p, ...noParts } = userMessage;
    expectInvalid(() => send(noParts), '/params/message/parts');
    expectInvalid(() => send(msg({ messageId: '' })), '/params/message/messageId');
    expectInvalid(() => codec.decodeTask({ id: 't' }, '/result'), '/result/status');
    expectInvalid(() => codec.decodeTask({ status: { state: 1 } }, '/result'), '/result/id');
    expectInvalid(() => codec.decodeTask({ id: 't', status: {} }, '/result'), '/result/status/state');
    expectInvalid(
      () =>
        codec.decodeTask(
          { id: 't', status: { state: 1 }, artifacts: [{ parts: [{ text: 'x' }] }] },
          '/result',
        ),
      '/result/artifacts/0/artifactId',
    );
    expectInvalid(() => codec.decodeGetTaskRequest({}, '/params'), '/params/id');
    expectInvalid(() => codec.decodeCancelTaskRequest({ id: null }, '/params'), '/params/id');
    expectInvalid(() => codec.decodeSubscribeToTaskRequest({ tenant: 't' }, '/params'), '/params/id');
    expectInvalid(() => codec.decodeTaskPushNotificationConfig({ taskId: 't' }, '/params'), '/params/url');
    expectInvalid(() => codec.decodeTaskPushNotificationConfigRef({ taskId: 't' }, '/params'), '/params/id');
    expectInvalid(() => codec.decodeTaskPushNotificationConfigRef({ id: 'c' }, '/params'), '/params/taskId');
    expectInvalid(() => codec.decodeListTaskPushNotificationConfigsRequest({}, '/params'), '/params/taskId');
    expectInvalid(
      () => codec.decodeStreamResponse({ statusUpdate: { taskId: 't', status: { state: 2 } } }, '/result'),
      '/result/statusUpdate/contextId',
    );
    expectInvalid(
      () => codec.decodeStreamResponse({ artifactUpdate: { taskId: 't', contextId: 'c' } }, '/result'),
      '/result/artifactUpdate/artifact',
    );
  });

  it('parts with zero or several content members', () => {
    expectInvalid(() => send(msg({ parts: [{ text: 'a', raw: 'AAAA' }] })), '/params/message/parts/0');
    expectInvalid(
      () => send(msg({ parts: [{ text: 'a' }, { url: 'u', data: {} }] })),
      '/params/message/parts/1',
    );
    expectInvalid(
      () => send(msg({ parts: [{ text: 'a' }, { mediaType: 'text/plain' }] })),
      '/params/message/parts/1',
    );
    expectInvalid(() => send(msg({ parts: [{ text: 'a', data: null }] })), '/params/message/parts/0');
  });

  it('empty required lists', () => {
    expectInvalid(() => send(msg({ parts: [] })), '/params/message/parts');
    expectInvalid(
      () =>
        codec.decodeTask(
          { id: 't', status: { state: 1 }, artifacts: [{ artifactId: 'a', parts: [] }] },
          '/result',
        ),
      '/result/artifacts/0/parts',
    );
  });

  it('pageSize out of range', () => {
    expectInvalid(() => codec.decodeListTasksRequest({ pageSize: 0 }, '/params'), '/params/pageSize');
    expectInvalid(() => codec.decodeListTasksRequest({ pageSize: 101 }, '/params'), '/params/pageSize');
    expectInvalid(() => codec.decodeListTasksRequest({ pageSize: '10' }, '/params'), '/params/pageSize');
    expect(codec.decodeListTasksRequest({ pageSize: 1 }, '/params').pageSize).toBe(1);
    expect(codec.decodeListTasksRequest({ pageSize: 100 }, '/params').pageSize).toBe(100);
    expectInvalid(
      () => codec.decodeListTaskPushNotificationConfigsRequest({ taskId: 't', pageSize: -1 }, '/params'),
      '/params/pageSize',
    );
  });

  it('bad timestamps', () => {
    expectInvalid(
      () => codec.decodeListTasksRequest({ statusTimestampAfter: 'yesterday' }, '/params'),
      '/params/statusTimestampAfter',
    );
    expectInvalid(
      () => codec.decodeListTasksRequest({ statusTimestampAfter: 1700000000 }, '/params'),
      '/params/statusTimestampAfter',
    );
    expectInvalid(
      () => codec.decodeTask({ id: 't', status: { state: 1, timestamp: '2026-13-45T99:00:00Z' } }, '/result'),
      '/result/status/timestamp',
    );
  });

  it('bad base64', () => {
    for (const raw of ['not base64!', 'abcde', 'ab=c', 'abc==', 42]) {
      expectInvalid(() => send(msg({ parts: [{ raw }] })), '/params/message/parts/0/raw');
    }
    for (const raw of ['', 'AA', 'AA==', 'AAE', 'AAE=', 'a-_b', 'a+/b']) {
      expect(send(msg({ parts: [{ raw }] })).message.parts[0]).toEqual({ raw });
    }
  });

  it('oneof wrappers with zero or several members', () => {
    expectInvalid(() => codec.decodeSendMessageResponse({}, '/result'), '/result');
    expectInvalid(
      () => codec.decodeSendMessageResponse({ task, message: agentMessage }, '/result'),
      '/result',
    );
    expectInvalid(
      () => codec.decodeStreamResponse({ statusUpdate: {}, artifactUpdate: {} }, '/result'),
      '/result',
    );
    expectInvalid(() => codec.decodeStreamResponse({ task: 'x' }, '/result'), '/result/task');
    expectInvalid(
      () => codec.decodeStreamResponse({ message: { ...agentMessage, parts: [{ raw: '!' }] } }, '/result'),
      '/result/message/parts/0/raw',
    );
  });

  it('agent card problems', () => {
    const card = (over: Record<string, unknown>) =>
      codec.decodeAgentCard({ ...clone(agentCard), ...over }, '');
    expectInvalid(() => card({ name: undefined }), '/name');
    expectInvalid(() => card({ supportedInterfaces: [] }), '/supportedInterfaces');
    expectInvalid(
      () => card({ supportedInterfaces: [{ url: 'https://x', protocolBinding: 'JSONRPC' }] }),
      '/supportedInterfaces/0/protocolVersion',
    );
    expectInvalid(() => card({ capabilities: undefined }), '/capabilities');
    expectInvalid(() => card({ capabilities: { streaming: 'yes' } }), '/capabilities/streaming');
    expectInvalid(() => card({ defaultInputModes: [] }), '/defaultInputModes');
    expectInvalid(() => card({ defaultOutputModes: undefined }), '/defaultOutputModes');
    expectInvalid(() => card({ skills: [] }), '/skills');
    expectInvalid(() => card({ skills: [{ id: 's', name: 'n', description: 'd' }] }), '/skills/0/tags');
    expectInvalid(() => card({ provider: { url: 'https://x' } }), '/provider/organization');
    expectInvalid(() => card({ signatures: [{ protected: 'p' }] }), '/signatures/0/signature');
    expectInvalid(
      () => card({ securitySchemes: { 'a/b': { apiKeySecurityScheme: {}, mtlsSecurityScheme: {} } } }),
      '/securitySchemes/a~1b',
    );
    expectInvalid(() => card({ securitySchemes: { k: {} } }), '/securitySchemes/k');
    expectInvalid(
      () => card({ securitySchemes: { k: { type: 'apiKey', in: 'header', name: 'X' } } }),
      '/securitySchemes/k',
    );
    expectInvalid(
      () => card({ securitySchemes: { k: { apiKeySecurityScheme: { location: 'body', name: 'X' } } } }),
      '/securitySchemes/k/apiKeySecurityScheme/location',
    );
    expectInvalid(
      () => card({ securitySchemes: { k: { oauth2SecurityScheme: {} } } }),
      '/securitySchemes/k/oauth2SecurityScheme/flows',
    );
    expectInvalid(
      () =>
        card({
          securitySchemes: {
            k: {
              oauth2SecurityScheme: {
                flows: {
                  clientCredentials: { tokenUrl: 't', scopes: {} },
                  password: { tokenUrl: 't', scopes: {} },
                },
              },
            },
          },
        }),
      '/securitySchemes/k/oauth2SecurityScheme/flows',
    );
    expectInvalid(
      () =>
        card({
          securitySchemes: {
            k: { oauth2SecurityScheme: { flows: { clientCredentials: { scopes: { a: 1 } } } } },
          },
        }),
      '/securitySchemes/k/oauth2SecurityScheme/flows/clientCredentials/scopes/a',
    );
    expectInvalid(
      () => card({ securityRequirements: [{ schemes: { a: { list: [1] } } }] }),
      '/securityRequirements/0/schemes/a/list/0',
    );
    expectInvalid(() => card({ securityRequirements: [{ a: 'read' }] }), '/securityRequirements/0/a');
    expectInvalid(
      () =>
        card({
          skills: [{ id: 's', name: 'n', description: 'd', tags: ['t'], securityRequirements: [{ a: [2] }] }],
        }),
      '/skills/0/securityRequirements/0/a/0',
    );
  });
});
