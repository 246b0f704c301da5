// The official A2A JS SDK (@a2a-js/sdk 1.3.0) serving the benchmark's echo agent.
//
// SDK 1.3.0 is A2A 1.0-native (methods `SendMessage`/`SendStreamingMessage`, selected by an
// `A2A-Version: 1.0` header); A2A 0.3 (`message/send`, `message/stream`) is served by its opt-in
// compat layer, which also handles requests with no A2A-Version header. The benchmark speaks 0.3
// without the header, so `legacyCompat` is on and the card declares a 0.3 JSON-RPC interface.
// Setup follows the SDK's documented path: DefaultRequestHandler + InMemoryTaskStore + an
// AgentExecutor, mounted with the express `jsonRpcHandler`.

import express from 'express';
import { TaskState } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';

const port = Number(process.env.PORT);
const url = `http://127.0.0.1:${port}/`;

const agentCard = {
  name: 'bench',
  description: 'bench agent',
  version: '1.0.0',
  provider: undefined,
  supportedInterfaces: [
    { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true, pushNotifications: false, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'echo',
      name: 'echo',
      description: 'echo',
      tags: ['echo'],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    },
  ],
  signatures: [],
};

const textPart = (value) => ({
  content: { $case: 'text', value },
  mediaType: 'text/plain',
  filename: '',
  metadata: {},
});

// The same trivial agent as the other servers: create the task, add one artifact
// "echo: <text>", complete it. The SDK's model is 1.0/protobuf-shaped (parts carry `content`).
const echoExecutor = {
  async execute(ctx, bus) {
    const message = ctx.userMessage;
    const text = message.parts.find((p) => p.content?.$case === 'text')?.content.value ?? '';
    const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
    if (!ctx.task) {
      bus.publish(
        AgentEvent.task({
          id: ctx.taskId,
          contextId: ctx.contextId,
          status: {
            state: TaskState.TASK_STATE_SUBMITTED,
            message: undefined,
            timestamp: new Date().toISOString(),
          },
          artifacts: [],
          history: [message],
          metadata: {},
        }),
      );
    }
    bus.publish(
      AgentEvent.artifactUpdate({
        ...ids,
        artifact: {
          artifactId: 'echo',
          name: '',
          description: '',
          parts: [textPart(`echo: ${text}`)],
          metadata: {},
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: {},
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        ...ids,
        status: {
          state: TaskState.TASK_STATE_COMPLETED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        metadata: {},
      }),
    );
  },
  async cancelTask() {},
};

const requestHandler = new DefaultRequestHandler(agentCard, new InMemoryTaskStore(), echoExecutor);
const app = express();
app.use(
  '/.well-known/agent-card.json',
  agentCardHandler({ agentCardProvider: requestHandler, legacyCompat: { enabled: true } }),
);
app.use(
  '/',
  jsonRpcHandler({
    requestHandler,
    userBuilder: UserBuilder.noAuthentication,
    legacyCompat: { enabled: true },
  }),
);

const server = app.listen(port, '127.0.0.1', () => {
  process.stdout.write('READY {"path":"/"}\n');
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
