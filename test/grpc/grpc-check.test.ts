/**
 * `concord check` covers the gRPC interfaces a card declares (decision 0073): Concord's echo
 * served over gRPC passes rule 49 (errors carry the table's status and an ErrorInfo), and a gRPC
 * endpoint that answers errors without details fails it with the evidence.
 */
import { Server, ServerCredentials, type ServiceDefinition } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAgent } from '../../src/check/index.js';
import { grpcSchema } from '../../src/server/grpc/grpc-schema-loader.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

describe('concord check over gRPC', () => {
  let echo: EchoServer;
  beforeAll(async () => {
    echo = await startEcho({ grpc: true });
  });
  afterAll(async () => {
    await echo.close();
  });

  it('passes rule 49 against Concord, with every other rule as before', async () => {
    const report = await checkAgent(echo.url, { allowPrivateNetworks: true });
    expect(report.rules.filter((r) => r.outcome === 'fail')).toEqual([]);
    expect(report.rules.find((r) => r.id === 49)?.outcome).toBe('pass');
  });

  it('fails rule 49 against a gRPC endpoint whose errors carry no ErrorInfo', async () => {
    const service = grpcSchema().services['1.0'];
    const send = service.method('sendMessage')!;
    const get = service.method('getTask')!;
    const bytes = (b: Buffer): Buffer => b;
    const definition = Object.fromEntries(
      [send, get].map((m) => [
        m.name,
        {
          path: m.path,
          requestStream: false,
          responseStream: false,
          requestSerialize: bytes,
          requestDeserialize: bytes,
          responseSerialize: bytes,
          responseDeserialize: bytes,
        },
      ]),
    ) as ServiceDefinition;
    const fake = new Server();
    fake.addService(definition, {
      SendMessage: (_call: unknown, done: (e: null, v: Buffer) => void) =>
        done(
          null,
          send.writeResult({ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } }),
        ),
      GetTask: (_call: unknown, done: (e: { code: number; details: string }) => void) =>
        done({ code: 5, details: 'no such task' }),
    });
    const port = await new Promise<number>((resolve, reject) =>
      fake.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) =>
        e === null ? resolve(p) : reject(e),
      ),
    );
    const other = await startEcho();
    other.a2a.setGrpcTarget(`127.0.0.1:${port}`);
    try {
      const report = await checkAgent(other.url, { allowPrivateNetworks: true });
      const rule = report.rules.find((r) => r.id === 49)!;
      expect(rule.outcome).toBe('fail');
      expect(rule.failures[0]!.received).toMatch(/gRPC status 5, reason undefined/);
    } finally {
      fake.forceShutdown();
      await other.close();
    }
  });
});
