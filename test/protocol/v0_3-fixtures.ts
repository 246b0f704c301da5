/**
 * The 0.3 codec tests' fixtures: canonical (1.0-shaped) model values, the 0.3 peer's view of them,
 * and what each state's `final` flag is.
 */
import { clone } from './expect-invalid.js';
import type {
  Message,
  SendMessageRequest,
  Task,
  TaskArtifactUpdateEvent,
  TaskPushNotificationConfig,
  TaskState,
  TaskStatusUpdateEvent,
} from '../../src/protocol/model.js';
import type { AgentCard } from '../../src/protocol/agent-card.js';

/** What a peer receives: JSON text, parsed again. */
export const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

// ---------------------------------------------------------------------------------------------
// Canonical fixtures (1.0-shaped model).

export const userMessage: Message = {
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

export const agentMessage: Message = {
  messageId: 'msg-2',
  role: 'ROLE_AGENT',
  parts: [{ text: 'Working on it', metadata: { lang: 'en' } }, { raw: 'AAEC' }],
  contextId: 'ctx-1',
  taskId: 'task-1',
};

export const task: Task = {
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

export const statusUpdate: TaskStatusUpdateEvent = {
  taskId: 'task-1',
  contextId: 'ctx-1',
  status: { state: 'TASK_STATE_WORKING', timestamp: '2025-08-01T10:00:01.000Z' },
  metadata: { step: 2 },
};

export const artifactUpdate: TaskArtifactUpdateEvent = {
  taskId: 'task-1',
  contextId: 'ctx-1',
  artifact: { artifactId: 'art-2', parts: [{ text: 'chunk 1' }] },
  append: true,
  lastChunk: false,
  metadata: { seq: 1 },
};

export const pushConfig: TaskPushNotificationConfig = {
  id: 'cfg-1',
  taskId: 'task-1',
  url: 'https://client.example.com/hook',
  token: 'tok-1',
  authentication: { scheme: 'Bearer', credentials: 'secret' },
};

export const sendRequest: SendMessageRequest = {
  message: userMessage,
  configuration: {
    acceptedOutputModes: ['text/plain', 'application/json'],
    historyLength: 5,
    taskPushNotificationConfig: { taskId: '', url: 'https://client.example.com/hook', token: 'tok-2' },
    returnImmediately: true,
  },
  metadata: { origin: 'test' },
};

export const card: AgentCard = {
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

export const FINAL: Record<TaskState, boolean> = {
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
export function protoSafe(message: Message): Message {
  const copy = clone(message);
  delete copy.referenceTaskIds;
  return copy;
}
export const restTask: Task = { ...task, history: (task.history ?? []).map(protoSafe) };
