/**
 * What the seeded fuzz run (test/integration/fuzz.test.ts) found on gRPC, pinned as plain cases:
 * - a 70,000-character task id came back whole in the status message and ErrorInfo, the trailers
 *   overflowed the client's header-list limit and the call was never answered (error-bounds.ts);
 * - a Struct member sent without its value (a map entry with only a key) failed as INTERNAL.
 */
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProtocolVersion } from '../../src/protocol/index.js';
import type { GrpcOperation } from '../../src/protocol/grpc/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { grpcClient, grpcWireError } from '../helpers/grpc-driver.js';

let server: EchoServer;
beforeAll(async () => {
  server = await startEcho({ grpc: true });
});
afterAll(async () => {
  await server.close();
});

function call(
  version: ProtocolVersion,
  operation: GrpcOperation,
  bytes: Buffer,
): Promise<{ code: number; details: string; metadata: Record<string, string> }> {
  const { client, method } = grpcClient(`127.0.0.1:${server.grpc!.port}`, version);
  const m = method(operation);
  const md = new Metadata();
  if (version === '1.0') md.set('a2a-version', '1.0');
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      m.path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      bytes,
      md,
      { deadline: Date.now() + 5000 },
      (error: ServiceError | null) => {
        client.close();
        if (error === null) resolve({ code: status.OK, details: '', metadata: {} });
        else {
          const body = grpcWireError(error).body as { metadata?: Record<string, string> };
          resolve({ code: error.code, details: error.details, metadata: body.metadata ?? {} });
        }
      },
    );
  });
}

describe('gRPC answers what the fuzzer found', () => {
  for (const version of ['0.3', '1.0'] as const) {
    it(`${version}: GetTask with a 70,000-character id is NOT_FOUND with a bounded message`, async () => {
      const { method } = grpcClient(`127.0.0.1:${server.grpc!.port}`, version);
      const bytes = method('getTask').writeRequest({ id: 'x'.repeat(70_000) });
      const answer = await call(version, 'getTask', bytes);
      expect(answer.code).toBe(status.NOT_FOUND);
      expect(answer.details).toContain('(70000 characters)');
      expect(answer.details.length).toBeLessThan(2048);
      expect(answer.metadata.taskId).toMatch(/^x{1024}… \(70000 characters\)$/);
    });
  }

  it('1.0: a Struct member without its value is read as null, not an internal error', async () => {
    // SendMessageRequest{message{messageId "m", parts[{text "hello"}], metadata{fields{"a": <no value>}}}}
    // with the role left out: the answer is the missing role, not INTERNAL.
    const bytes = Buffer.from(
      'EjQKAW0qBwoFaGVsbG8qJiIkKiIKIAoAYRIbMhkKCREAAAAAAADwPwoMKgoKCAoBYhIDGgFj',
      'base64',
    );
    const answer = await call('1.0', 'sendMessage', bytes);
    expect(answer.code).toBe(status.INVALID_ARGUMENT);
    expect(answer.details).toContain('/message/role');
  });
});
