/**
 * Every A2A error over gRPC, through a real socket (A2A 1.0 §10.6, §5.4): the status code from the
 * error table's gRPC column, ErrorInfo (reason, domain, metadata) and BadRequest field paths in
 * `grpc-status-details-bin`; version and extension metadata; authentication from metadata; body
 * limits; deadlines and cancellation reaching the handler.
 */
import { Metadata, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2A_ERROR_DOMAIN, type AgentCard } from '../../src/protocol/internal.js';
import {
  createA2AServer,
  type A2AServerOptions,
  type AgentExecutor,
  type EventHub,
} from '../../src/server/internal.js';
import { listenGrpc, type RunningGrpcServer } from '../../src/server/grpc/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { grpcClient, grpcDriver, grpcWireError } from '../helpers/grpc-driver.js';
import { ok, taskOf, userText } from '../helpers/drivers.js';

const card = {
  name: 'test',
  description: 'test agent',
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
};

async function serve(
  executor: AgentExecutor,
  extra: Partial<A2AServerOptions> = {},
): Promise<RunningGrpcServer> {
  const server = createA2AServer({ agentCard: card, executor, baseUrl: 'http://agent.test/', ...extra });
  return listenGrpc(server);
}

/** Sends raw request bytes to a method and returns the error (or undefined on success). */
function rawCall(target: string, path: string, bytes: Buffer, metadata = new Metadata()) {
  const { client } = grpcClient(target, '1.0');
  return new Promise<{ code: number; wire: ReturnType<typeof grpcWireError> | undefined }>((resolve) => {
    client.makeUnaryRequest(
      path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      bytes,
      metadata,
      (error) => {
        client.close();
        resolve(
          error === null ? { code: 0, wire: undefined } : { code: error.code, wire: grpcWireError(error) },
        );
      },
    );
  });
}

describe('A2A errors as gRPC statuses', () => {
  let echo: EchoServer;
  beforeAll(async () => {
    echo = await startEcho({ grpc: true });
  });
  afterAll(async () => {
    await echo.close();
    expect(echo.errors).toEqual([]);
  });

  for (const version of ['1.0', '0.3'] as const) {
    it(`${version}: invalid params are INVALID_ARGUMENT naming the field (-32602)`, async () => {
      const d = grpcDriver(echo.grpc!.target, version);
      const outcome = await d.send({ ...userText('x'), role: 'ROLE_AGENT' });
      d.close?.();
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.grpcStatus).toBe(status.INVALID_ARGUMENT);
      expect(outcome.error.code).toBe(-32602);
      expect(outcome.error.reason).toBe('INVALID_PARAMS');
      expect(outcome.error.violations).toEqual([
        { field: '/message/role', description: 'a client message must have the user role' },
      ]);
    });

    it(`${version}: push operations are FAILED_PRECONDITION PUSH_NOTIFICATION_NOT_SUPPORTED (-32003)`, async () => {
      const { client, method } = grpcClient(echo.grpc!.target, version);
      const create = method('createTaskPushNotificationConfig');
      const bytes = create.writeRequest({ taskId: 't1', url: 'https://example.com/hook' });
      const md = new Metadata();
      if (version === '1.0') md.set('a2a-version', '1.0');
      const error = await new Promise<ReturnType<typeof grpcWireError>>((resolve, reject) =>
        client.makeUnaryRequest(
          create.path,
          (b: Buffer) => b,
          (b: Buffer) => b,
          bytes,
          md,
          (e) => (e === null ? reject(new Error('expected an error')) : resolve(grpcWireError(e))),
        ),
      );
      client.close();
      expect(error.grpcStatus).toBe(status.FAILED_PRECONDITION);
      expect(error.reason).toBe('PUSH_NOTIFICATION_NOT_SUPPORTED');
      expect(error.code).toBe(-32003);
      expect((error.body as { domain?: string }).domain).toBe(A2A_ERROR_DOMAIN);
    });
  }

  it('the extended card: -32004 in 1.0 when not declared, -32007 in 0.3 (GetAgentCard)', async () => {
    for (const [version, code, reason] of [
      ['1.0', -32004, 'UNSUPPORTED_OPERATION'],
      ['0.3', -32007, 'EXTENDED_AGENT_CARD_NOT_CONFIGURED'],
    ] as const) {
      const { client, method } = grpcClient(echo.grpc!.target, version);
      const m = method('getExtendedAgentCard');
      const md = new Metadata();
      if (version === '1.0') md.set('a2a-version', '1.0');
      const error = await new Promise<ReturnType<typeof grpcWireError>>((resolve, reject) =>
        client.makeUnaryRequest(
          m.path,
          (b: Buffer) => b,
          (b: Buffer) => b,
          m.writeRequest({}),
          md,
          (e) => (e === null ? reject(new Error('expected an error')) : resolve(grpcWireError(e))),
        ),
      );
      client.close();
      expect(error.grpcStatus).toBe(status.FAILED_PRECONDITION);
      expect([error.code, error.reason]).toEqual([code, reason]);
    }
  });

  it('acceptedOutputModes the agent cannot produce are INVALID_ARGUMENT (-32005)', async () => {
    const d = grpcDriver(echo.grpc!.target, '1.0');
    const outcome = await d.send(userText('x'), { acceptedOutputModes: ['image/png'] });
    d.close?.();
    expect(outcome.ok ? undefined : [outcome.error.grpcStatus, outcome.error.code]).toEqual([
      status.INVALID_ARGUMENT,
      -32005,
    ]);
  });

  it('bytes that are not the request message are INVALID_ARGUMENT (-32600)', async () => {
    const { code, wire } = await rawCall(
      echo.grpc!.target,
      '/lf.a2a.v1.A2AService/GetTask',
      Buffer.from([0x0f]), // field 1 with wire type 7, which does not exist,
    );
    expect(code).toBe(status.INVALID_ARGUMENT);
    expect(wire?.reason).toBe('INVALID_REQUEST');
  });

  it('a version the service does not speak is FAILED_PRECONDITION VERSION_NOT_SUPPORTED (-32009)', async () => {
    for (const [version, asked] of [
      ['1.0', '2.0'],
      ['0.3', '1.0'],
      ['1.0', '0.3'],
    ] as const) {
      const d = grpcDriver(echo.grpc!.target, version, { 'a2a-version': asked });
      const outcome = await d.getTask('t');
      d.close?.();
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.grpcStatus).toBe(status.FAILED_PRECONDITION);
      expect(outcome.error.code).toBe(-32009);
    }
    // Without the metadata, the service's package names the version (decision 0070).
    const bare = grpcClient(echo.grpc!.target, '1.0');
    const m = bare.method('getTask');
    const answer = await new Promise<number>((resolve) =>
      bare.client.makeUnaryRequest(
        m.path,
        (b: Buffer) => b,
        (b: Buffer) => b,
        m.writeRequest({ id: 'nope' }),
        new Metadata(),
        (e) => resolve(e?.code ?? 0),
      ),
    );
    bare.client.close();
    expect(answer).toBe(status.NOT_FOUND);
  });

  it('an unknown RPC is UNIMPLEMENTED', async () => {
    const { code } = await rawCall(echo.grpc!.target, '/lf.a2a.v1.A2AService/QuerySkill', Buffer.alloc(0));
    expect(code).toBe(status.UNIMPLEMENTED);
  });

  it('a message over the body limit is RESOURCE_EXHAUSTED, and the server keeps serving', async () => {
    const d = grpcDriver(echo.grpc!.target, '1.0');
    const big = await d.send(userText('x'.repeat(2 * 1024 * 1024)));
    expect(big.ok ? undefined : big.error.grpcStatus).toBe(status.RESOURCE_EXHAUSTED);
    expect(taskOf(await d.send(userText('still here'))).status.state).toBe('TASK_STATE_COMPLETED');
    d.close?.();
  });

  it('an expired deadline ends a blocking send with DEADLINE_EXCEEDED; the task lives on', async () => {
    const { client, method } = grpcClient(echo.grpc!.target, '1.0');
    const m = method('sendMessage');
    const md = new Metadata();
    md.set('a2a-version', '1.0');
    const started = Date.now();
    const code = await new Promise<number>((resolve) =>
      client.makeUnaryRequest(
        m.path,
        (b: Buffer) => b,
        (b: Buffer) => b,
        m.writeRequest({ message: userText('wait') }),
        md,
        { deadline: Date.now() + 300 },
        (e) => resolve(e?.code ?? 0),
      ),
    );
    client.close();
    expect(code).toBe(status.DEADLINE_EXCEEDED);
    expect(Date.now() - started).toBeLessThan(3000);
    const d = grpcDriver(echo.grpc!.target, '1.0');
    const page = ok(await d.listTasks({ pageSize: 1 }));
    expect(page.tasks[0]!.status.state).toBe('TASK_STATE_WORKING');
    expect(ok(await d.cancelTask(page.tasks[0]!.id)).status.state).toBe('TASK_STATE_CANCELED');
    d.close?.();
  });

  it('a cancelled stream call closes its subscription on the server', async () => {
    const d = grpcDriver(echo.grpc!.target, '1.0');
    const started = taskOf(await d.send(userText('wait'), { returnImmediately: true }));
    const hub = (echo.a2a.handler as unknown as { context: { hub: EventHub } }).context.hub;
    const run = await d.subscribe(started.id, { stopAfter: 1 });
    expect(run.items).toHaveLength(1);
    expect(run.closedByServer).toBe(false);
    const deadline = Date.now() + 2000;
    while (hub.hasSubscribers(started.id) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(hub.hasSubscribers(started.id)).toBe(false);
    ok(await d.cancelTask(started.id));
    d.close?.();
  });
});

describe('agents with more to say over gRPC', () => {
  it('an agent that produces nothing is INTERNAL INVALID_AGENT_RESPONSE (-32006)', async () => {
    const grpc = await serve({ execute: () => undefined });
    const d = grpcDriver(grpc.target, '1.0');
    const outcome = await d.send(userText('hi'));
    d.close?.();
    await grpc.close();
    expect(outcome.ok ? undefined : [outcome.error.grpcStatus, outcome.error.code]).toEqual([
      status.INTERNAL,
      -32006,
    ]);
  });

  it('a required extension: FAILED_PRECONDITION (-32008) without it, echoed in response metadata with it', async () => {
    const uri = 'https://example.com/ext/required/v1';
    const extensions = [{ uri, required: true }];
    const grpc = await serve(
      { execute: (_c, u) => u.complete('done') },
      { agentCard: { ...card, capabilities: { streaming: true, extensions } } },
    );
    const without = grpcDriver(grpc.target, '1.0');
    const refused = await without.send(userText('x'));
    without.close?.();
    expect(refused.ok ? undefined : [refused.error.grpcStatus, refused.error.code]).toEqual([
      status.FAILED_PRECONDITION,
      -32008,
    ]);
    const { client, method } = grpcClient(grpc.target, '1.0');
    const m = method('sendMessage');
    const md = new Metadata();
    md.set('a2a-version', '1.0');
    md.set('a2a-extensions', `${uri}, https://unknown.example/ext`);
    const echoed = await new Promise<string | undefined>((resolve, reject) => {
      const call = client.makeUnaryRequest(
        m.path,
        (b: Buffer) => b,
        (b: Buffer) => b,
        m.writeRequest({ message: userText('x') }),
        md,
        (e) => {
          if (e !== null) reject(e);
        },
      );
      call.on('metadata', (meta: Metadata) => resolve(meta.get('a2a-extensions')[0] as string | undefined));
    });
    client.close();
    await grpc.close();
    expect(echoed).toBe(uri);
  });

  it('authentication comes from metadata: UNAUTHENTICATED with a challenge, then accepted', async () => {
    const secured: Partial<AgentCard> = {
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'bearer' } } },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    };
    const grpc = await serve(
      { execute: (_c, u) => u.complete('done') },
      {
        agentCard: { ...card, ...secured },
        authenticate: (request) =>
          request.header('authorization') === 'Bearer s3cret' ? { name: 'alice' } : undefined,
      },
    );
    const anonymous = grpcDriver(grpc.target, '1.0');
    const refused = await anonymous.send(userText('x'));
    anonymous.close?.();
    expect(refused.ok ? undefined : refused.error.grpcStatus).toBe(status.UNAUTHENTICATED);
    const alice = grpcDriver(grpc.target, '1.0', { authorization: 'Bearer s3cret' });
    expect(taskOf(await alice.send(userText('x'))).status.state).toBe('TASK_STATE_COMPLETED');
    alice.close?.();
    await grpc.close();
  });
});
