import { describe, it, expect } from 'vitest';
import { v1_0Codec as codec } from '../../src/protocol/v1_0/index.js';
import { A2AError } from '../../src/protocol/errors.js';

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

// Fixtures are wire JSON, exactly as a conformant 1.0 peer would send them.
const userMessage = {
  messageId: 'msg-1',
  role: 'ROLE_USER',
  parts: [
    { text: 'Find me a red sedan', mediaType: 'text/plain' },
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

const agentMessage = {
  messageId: 'msg-2',
  role: 'ROLE_AGENT',
  parts: [{ text: 'Working on it' }, { data: [1, 'two', { three: 3 }] }, { data: null }, { raw: 'AAEC_-8' }],
  contextId: 'ctx-1',
  taskId: 'task-1',
};

const task = {
  id: 'task-1',
  contextId: 'ctx-1',
  status: {
    state: 'TASK_STATE_COMPLETED',
    message: { messageId: 'msg-3', role: 'ROLE_AGENT', parts: [{ text: 'Done' }] },
    timestamp: '2026-03-12T10:00:00.000Z',
  },
  artifacts: [
    {
      artifactId: 'art-1',
      name: 'shortlist',
      description: 'Three matching cars',
      parts: [{ data: { cars: ['a', 'b', 'c'] } }, { text: 'see above', metadata: { lang: 'en' } }],
      metadata: { rank: 1 },
      extensions: ['https://example.com/ext/aap/v0.1'],
    },
  ],
  history: [userMessage, agentMessage],
  metadata: { tenantHint: 'dealer-7' },
};

const agentCard = {
  name: 'Dealer agent',
  description: 'Finds cars',
  supportedInterfaces: [
    { url: 'https://dealer.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    {
      url: 'https://dealer.example.com/rest',
      protocolBinding: 'HTTP+JSON',
      tenant: 'north',
      protocolVersion: '1.0',
    },
    { url: 'https://dealer.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
  ],
  provider: { url: 'https://example.com', organization: 'Example Motors' },
  version: '2.1.0',
  documentationUrl: 'https://example.com/docs',
  capabilities: {
    streaming: true,
    pushNotifications: false,
    extensions: [
      {
        uri: 'https://example.com/ext/aump/v1',
        description: 'Mandates',
        required: true,
        params: { level: 2 },
      },
      { uri: 'https://example.com/ext/plain' },
    ],
    extendedAgentCard: true,
  },
  securitySchemes: {
    apiKey: { apiKeySecurityScheme: { description: 'Key in header', location: 'header', name: 'X-API-Key' } },
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
    oauthCode: {
      oauth2SecurityScheme: {
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://auth.example.com/authorize',
            tokenUrl: 'https://auth.example.com/token',
            refreshUrl: 'https://auth.example.com/refresh',
            scopes: { read: 'Read inventory', write: 'Reserve cars' },
            pkceRequired: true,
          },
        },
        oauth2MetadataUrl: 'https://auth.example.com/.well-known/oauth-authorization-server',
      },
    },
    oauthClient: {
      oauth2SecurityScheme: {
        flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: {} } },
      },
    },
    oauthDevice: {
      oauth2SecurityScheme: {
        description: 'For kiosks',
        flows: {
          deviceCode: {
            deviceAuthorizationUrl: 'https://auth.example.com/device',
            tokenUrl: 'https://auth.example.com/token',
            scopes: { read: 'Read inventory' },
          },
        },
      },
    },
    oauthImplicit: {
      oauth2SecurityScheme: {
        flows: {
          implicit: { authorizationUrl: 'https://auth.example.com/authorize', scopes: { read: 'r' } },
        },
      },
    },
    oauthPassword: {
      oauth2SecurityScheme: {
        flows: {
          password: { tokenUrl: 'https://auth.example.com/token', refreshUrl: 'https://r', scopes: {} },
        },
      },
    },
    oidc: {
      openIdConnectSecurityScheme: { openIdConnectUrl: 'https://auth.example.com/.well-known/openid' },
    },
    mtls: { mtlsSecurityScheme: { description: 'Client certificates' } },
    mtlsBare: { mtlsSecurityScheme: {} },
  },
  securityRequirements: [
    { schemes: { oauthCode: { list: ['read'] }, apiKey: {} } },
    { schemes: { mtls: {} } },
  ],
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['application/json'],
  skills: [
    {
      id: 'search',
      name: 'Search inventory',
      description: 'Searches cars',
      tags: ['cars', 'search'],
      examples: ['red sedan under 30k'],
      inputModes: ['text/plain'],
      outputModes: ['application/json'],
      securityRequirements: [{ schemes: { bearer: {} } }],
    },
    { id: 'reserve', name: 'Reserve', description: 'Reserves a car', tags: ['cars'] },
  ],
  signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2lnbmF0dXJl', header: { kid: 'key-1' } }],
  iconUrl: 'https://example.com/icon.png',
};

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
    const wire = codec.encodeTask(canonical);
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

  it('accepts the prose security form and the `security` name (digest §12.11)', () => {
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
