/**
 * An agent served by the official TypeScript SDK (`@a2a-js/sdk` 1.3.0) on a real socket, for the
 * interop tests: JSON-RPC at `/` and HTTP+JSON at `/rest`, each in 1.0 and (through the SDK's
 * opt-in `legacyCompat`) 0.3; with `grpc: true` also its gRPC services (1.0 `A2AService` and
 * 0.3 `LegacyA2AService`) on a port of their own. The agent behaves like Concord's echo example where the tests need
 * it: any text completes with an `echo: <text>` artifact; `stream <n>` sends n artifact chunks
 * (append / lastChunk) 50 ms apart, then completes; `wait` stays working until canceled; `ask`
 * asks for input, and the next message on the task completes it. With `full: true` it also keeps
 * and delivers push configs (the SDK's sender, 0.3 bodies for configs made over 0.3) and serves an
 * extended card to callers presenting `Bearer ${SDK_TOKEN}`.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { TaskState, type AgentCard, type Part, type Task } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
} from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';
import { A2AService, grpcService, UserBuilder as GrpcUserBuilder } from '@a2a-js/sdk/server/grpc';
import { LegacyA2AService, legacyGrpcService } from '@a2a-js/sdk/compat/v0_3/server/grpc';
import { createLegacyAwarePushNotificationSender } from '@a2a-js/sdk/compat/v0_3/server';
import { Server as GrpcServer, ServerCredentials, type Metadata } from '@grpc/grpc-js';

/** The bearer token the `full` server accepts (the extended card is for authenticated callers). */
export const SDK_TOKEN = 'sdk-token';

/** A running SDK server. */
export interface SdkServer {
  /** Base URL (JSON-RPC endpoint, card under `.well-known/`), with a trailing slash. */
  url: string;
  /** The HTTP+JSON base URL. */
  restUrl: string;
  /** The gRPC `host:port`, when started with `grpc: true`. */
  grpcTarget?: string;
  close(): Promise<void>;
}

function textPart(value: string): Part {
  return { content: { $case: 'text', value }, mediaType: 'text/plain', filename: '', metadata: {} };
}

const now = (): string => new Date().toISOString();

function status(state: TaskState) {
  return { state, message: undefined, timestamp: now() };
}

/** Waiting tasks (their context and how to release them), released by cancelTask. */
const waiting = new Map<string, { contextId: string; release: () => void }>();

const executor: AgentExecutor = {
  async execute(ctx, bus) {
    const message = ctx.userMessage;
    const text = message.parts
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join('')
      .trim();
    const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
    if (ctx.task === undefined) {
      const task: Task = {
        id: ctx.taskId,
        contextId: ctx.contextId,
        status: status(TaskState.TASK_STATE_SUBMITTED),
        artifacts: [],
        history: [message],
        metadata: {},
      };
      bus.publish(AgentEvent.task(task));
    }
    const update = (state: TaskState): void =>
      bus.publish(AgentEvent.statusUpdate({ ...ids, status: status(state), metadata: {} }));
    const artifact = (value: string, artifactId: string, append: boolean, lastChunk: boolean): void =>
      bus.publish(
        AgentEvent.artifactUpdate({
          ...ids,
          artifact: {
            artifactId,
            name: 'echo',
            description: '',
            parts: [textPart(value)],
            metadata: {},
            extensions: [],
          },
          append,
          lastChunk,
          metadata: {},
        }),
      );

    const stream = /^stream\s+(\d+)$/i.exec(text);
    if (stream !== null) {
      const n = Number(stream[1]);
      update(TaskState.TASK_STATE_WORKING);
      for (let i = 1; i <= n; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        artifact(`chunk ${i} of ${n}\n`, 'stream', i > 1, i === n);
      }
      update(TaskState.TASK_STATE_COMPLETED);
      return;
    }
    if (text.toLowerCase() === 'ask' && ctx.task === undefined) {
      update(TaskState.TASK_STATE_INPUT_REQUIRED);
      return;
    }
    if (text.toLowerCase() === 'wait') {
      update(TaskState.TASK_STATE_WORKING);
      await new Promise<void>((release) => waiting.set(ctx.taskId, { contextId: ctx.contextId, release }));
      return;
    }
    artifact(`echo: ${text}`, 'echo', false, true);
    update(TaskState.TASK_STATE_COMPLETED);
  },
  async cancelTask(taskId: string, bus: ExecutionEventBus) {
    const entry = waiting.get(taskId);
    waiting.delete(taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: entry?.contextId ?? '',
        status: status(TaskState.TASK_STATE_CANCELED),
        metadata: {},
      }),
    );
    entry?.release();
  },
};

function cardFor(base: string, rest: string, full = false, grpc?: string): AgentCard {
  return {
    name: 'SDK Echo',
    description: 'An echo agent served by @a2a-js/sdk',
    version: '1.0.0',
    provider: undefined,
    documentationUrl: undefined,
    iconUrl: undefined,
    supportedInterfaces: [
      { url: base, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: rest, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
      { url: base, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
      { url: rest, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '0.3' },
      ...(grpc === undefined
        ? []
        : [
            { url: grpc, protocolBinding: 'GRPC', tenant: '', protocolVersion: '1.0' },
            { url: grpc, protocolBinding: 'GRPC', tenant: '', protocolVersion: '0.3' },
          ]),
    ],
    capabilities: {
      streaming: true,
      pushNotifications: full,
      extendedAgentCard: full,
      extensions: [],
    },
    // With `full`, the bearer scheme the extended card needs (optional: nothing requires it).
    securitySchemes: full
      ? {
          bearer: {
            scheme: {
              $case: 'httpAuthSecurityScheme',
              value: { scheme: 'Bearer', description: '', bearerFormat: '' },
            },
          },
        }
      : {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'echo',
        name: 'Echo',
        description: 'Echoes text; `stream <n>` streams, `wait` waits until canceled',
        tags: ['echo'],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  } as AgentCard;
}

/** A caller: authenticated when it presents the token (the SDK's `User` shape). */
function userOf(authorization: unknown) {
  const known = authorization === `Bearer ${SDK_TOKEN}`;
  return Promise.resolve({ isAuthenticated: known, userName: known ? 'interop' : '' });
}
const httpUser = (req: express.Request) => userOf(req.headers.authorization);
const grpcUser = (call: { metadata: Metadata }) => userOf(call.metadata.get('authorization')[0]);

async function startGrpc(
  handler: DefaultRequestHandler,
  full: boolean,
): Promise<{ target: string; server: GrpcServer }> {
  const server = new GrpcServer();
  const userBuilder = full ? grpcUser : GrpcUserBuilder.noAuthentication;
  server.addService(A2AService, grpcService({ requestHandler: handler, userBuilder }));
  server.addService(LegacyA2AService, legacyGrpcService({ requestHandler: handler, userBuilder }));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) =>
      e === null ? resolve(p) : reject(e),
    ),
  );
  return { target: `127.0.0.1:${port}`, server };
}

/**
 * Starts the SDK agent on 127.0.0.1 with an ephemeral port. With `push`, its card declares push
 * notifications and the SDK keeps push configs in its in-memory store (for the client's CRUD);
 * `full` adds the SDK's push sender and the extended card; with `grpc`, the SDK's gRPC services
 * run too and the card lists them. `protoJsonCard` serves 1.0 callers the card in ProtoJSON.
 */
export async function startSdkServer(
  options: { push?: boolean; grpc?: boolean; full?: boolean; protoJsonCard?: boolean } = {},
): Promise<SdkServer> {
  const full = options.full === true;
  const push = options.push === true || full;
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;
  const restUrl = `http://127.0.0.1:${port}/rest`;
  const card = cardFor(url, restUrl, full);
  // The public card without push keeps `pushNotifications: false` unless `push` asked for it.
  card.capabilities!.pushNotifications = push;
  const pushStore = push ? new InMemoryPushNotificationStore() : undefined;
  const extended: AgentCard = {
    ...card,
    name: 'SDK Echo (extended)',
    skills: [
      ...card.skills,
      {
        id: 'secret',
        name: 'Secret',
        description: 'Only on the extended card.',
        tags: ['extended'],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
  };
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    executor,
    undefined,
    pushStore,
    full && pushStore !== undefined ? createLegacyAwarePushNotificationSender(pushStore) : undefined,
    full ? extended : undefined,
  );
  const grpc = options.grpc === true ? await startGrpc(handler, full) : undefined;
  // The card lists the gRPC interfaces once their port is known.
  if (grpc !== undefined) {
    card.supportedInterfaces = cardFor(url, restUrl, full, grpc.target).supportedInterfaces;
    extended.supportedInterfaces = card.supportedInterfaces;
  }
  const userBuilder = full ? httpUser : UserBuilder.noAuthentication;
  const legacyCompat = { enabled: true };
  // SDK 1.3's agentCardHandler serves the 1.0 card as `JSON.stringify` of its ts-proto object, so a
  // security scheme reads `{"scheme":{"$case":"httpAuthSecurityScheme","value":{...}}}` instead of
  // ProtoJSON's `{"httpAuthSecurityScheme":{...}}` (decision 0047). Concord's client reads that form
  // liberally (decision 0143), so the client matrices get the SDK's own card. `concord card` is a
  // linter and rightly reports it as an error; for it (`protoJsonCard`) 1.0 callers get ProtoJSON,
  // as an SDK user who wants a conforming card must serve it.
  if (full && options.protoJsonCard === true) {
    app.get('/.well-known/agent-card.json', (req, res, next) => {
      if (!(req.header('a2a-version') ?? '').startsWith('1')) return next();
      res.json({
        ...card,
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      });
    });
  }
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler, legacyCompat }));
  app.use('/rest', restHandler({ requestHandler: handler, userBuilder, legacyCompat }));
  app.use('/', jsonRpcHandler({ requestHandler: handler, userBuilder, legacyCompat }));
  return {
    url,
    restUrl,
    ...(grpc === undefined ? {} : { grpcTarget: grpc.target }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const entry of waiting.values()) entry.release();
        grpc?.server.forceShutdown();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
