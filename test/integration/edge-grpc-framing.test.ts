// gRPC follows the HTTP bindings on framing errors (decision 0135): bytes that do not decode into
// the request are refused in A2A's terms, never restated by `mapError`; refusals after decoding
// still are.
import { Metadata, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AError, defineErrorTable, TableError } from '../../src/protocol/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { grpcClient, grpcDriver, grpcWireError } from '../helpers/grpc-driver.js';
import { userText } from '../helpers/drivers.js';

const TABLE = defineErrorTable('profile.example.org', {
  REFUSED: {
    code: -32602,
    httpStatus: 422,
    grpcStatus: 'FAILED_PRECONDITION',
    meaning: 'InvalidParamsError',
    defaultMessage: 'refused',
  },
});

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEcho({
    grpc: true,
    mapError: (error) =>
      error.type === 'InvalidParamsError' || error.type === 'InvalidRequestError'
        ? new TableError(TABLE, 'REFUSED', error.message)
        : error,
    admitMessage: (request) => {
      if (request.message.parts[0]?.text === 'refuse') throw new A2AError('InvalidParamsError', 'no');
    },
  });
});
afterAll(async () => {
  await echo.close();
});

function rawSend(bytes: Buffer): Promise<{ code: number; reason: string | undefined }> {
  const { client } = grpcClient(echo.grpc!.target, '1.0');
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      '/lf.a2a.v1.A2AService/SendMessage',
      (b: Buffer) => b,
      (b: Buffer) => b,
      bytes,
      new Metadata(),
      (error) => {
        client.close();
        resolve({ code: error?.code ?? 0, reason: error === null ? undefined : grpcWireError(error).reason });
      },
    );
  });
}

describe('gRPC framing errors', () => {
  it('bytes that are not a request, or a request without its message, keep A2A’s status and reason', async () => {
    const garbage = await rawSend(Buffer.from([0x0f]));
    expect(garbage).toEqual({ code: status.INVALID_ARGUMENT, reason: 'INVALID_REQUEST' });
    const empty = await rawSend(Buffer.alloc(0));
    expect(empty).toEqual({ code: status.INVALID_ARGUMENT, reason: 'INVALID_PARAMS' });
  });

  it('a refusal after the request was read is restated by the table', async () => {
    const driver = grpcDriver(echo.grpc!.target, '1.0');
    const refused = await driver.send(userText('refuse'));
    driver.close?.();
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.grpcStatus).toBe(status.FAILED_PRECONDITION);
      expect(refused.error.reason).toBe('REFUSED');
    }
  });
});
