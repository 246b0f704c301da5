// The gRPC listener's connection settings (decision 0146): grpc-js kept a connection that
// never spoke HTTP/2 forever; the idle timeout now ends it, and real calls still work beside it.
import { afterEach, expect, it } from 'vitest';
import { createA2AServer } from '../../src/server/index.js';
import { listenGrpc, type RunningGrpcServer } from '../../src/server/grpc/index.js';
import { closedWithin, openSocket } from '../helpers/raw-http.js';
import { grpcDriver } from '../helpers/grpc-driver.js';
import { taskOf, userText } from '../helpers/drivers.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

let running: RunningGrpcServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

it('closes a connection that never speaks once the idle timeout passes', async () => {
  const a2a = createA2AServer({ agentCard: echo.agentCard, executor: echo.executor });
  running = await listenGrpc(a2a, { idleTimeoutMs: 300, shutdownGraceMs: 100 });
  const silent = await openSocket(`http://${running.target}/`);
  silent.on('error', () => undefined);
  await closedWithin(silent, 2_500);
  const task = taskOf(await grpcDriver(running.target, '1.0').send(userText('beside it')));
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
});

it('refuses idle and keepalive settings that cannot work', async () => {
  const a2a = createA2AServer({ agentCard: echo.agentCard, executor: echo.executor });
  await expect(listenGrpc(a2a, { idleTimeoutMs: 0 })).rejects.toThrow(
    /idleTimeoutMs: expected a positive integer, got 0/,
  );
  await expect(listenGrpc(a2a, { keepaliveMs: -5 })).rejects.toThrow(
    /keepaliveMs: expected a positive integer, got -5/,
  );
});
