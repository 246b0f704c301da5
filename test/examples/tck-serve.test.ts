/**
 * `concord serve examples/tck` as the conformance kits meet it (the built CLI as a child process):
 * the card they read (streaming, push, real input media types, the `tck` skill, a bare gRPC
 * target for the 1.0 kit) and the kit's own CORE-SEND-003 and input-required requests.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startConcord, type LiveCli } from '../cli/cli-process.js';

let cli: LiveCli;
let url: string;

beforeAll(async () => {
  process.env.TCK_DELAY_MS = '200';
  cli = startConcord([
    'serve',
    join(ROOT, 'examples/tck'),
    '--port',
    '0',
    '--grpc-port',
    '0',
    '--store',
    'memory',
    '--push-allow',
    '127.0.0.1',
  ]);
  const stdout = await cli.until((s) => /gRPC: \S+/.test(s) && s.includes('http://'));
  url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout)![1]!;
});
afterAll(async () => {
  cli.child.kill('SIGTERM');
  expect((await cli.exited).code).toBe(0);
});

interface RpcAnswer {
  result?: { task: { id: string; status: { state: string } } };
  error?: { code: number; data: { reason?: string }[] };
}

interface Card {
  capabilities: Record<string, unknown>;
  defaultInputModes: string[];
  skills: { id: string }[];
  supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
}

async function rpc(method: string, params: unknown): Promise<RpcAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as RpcAnswer;
}

describe('concord serve examples/tck', () => {
  it('serves the card the kits read', async () => {
    const card = (await (await fetch(`${url}.well-known/agent-card.json`)).json()) as Card;
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
    expect(card.defaultInputModes).toEqual(['text/plain', 'application/json']);
    expect(card.skills.map((s) => s.id)).toEqual(['tck']);
    const bindings = card.supportedInterfaces.map((i) => i.protocolBinding);
    // The 1.0 kit takes the first interface per binding: the 1.0 ones come first.
    expect(card.supportedInterfaces[0]!.protocolVersion).toBe('1.0');
    expect(new Set(bindings)).toEqual(new Set(['JSONRPC', 'HTTP+JSON', 'GRPC']));
    const grpc = card.supportedInterfaces.find(
      (i: { protocolBinding: string }) => i.protocolBinding === 'GRPC',
    );
    expect(grpc?.url).toMatch(/^[^/]+:\d+$/); // bare host:port, for grpc.insecure_channel
  });

  it("refuses the kit's unsupported media type (CORE-SEND-003) with -32005", async () => {
    const body = await rpc('SendMessage', {
      message: {
        role: 'ROLE_USER',
        parts: [{ raw: 'dGNr', mediaType: 'application/x-unsupported-tck-type' }],
        messageId: 'tck-send-003-0f0f0f0f-jsonrpc',
      },
    });
    expect(body.error?.code).toBe(-32005);
    expect(body.error?.data[0]).toMatchObject({ reason: 'CONTENT_TYPE_NOT_SUPPORTED' });
  });

  it('keeps a tck-input-required task open, completes it on the follow-up, and delays on request', async () => {
    const first = await rpc('SendMessage', {
      message: { role: 'ROLE_USER', parts: [{ text: 'TCK' }], messageId: 'tck-input-required-1a2b3c4d' },
    });
    expect(first.result!.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const next = await rpc('SendMessage', {
      message: {
        role: 'ROLE_USER',
        parts: [{ text: 'done' }],
        messageId: 'tck-complete-task-1a2b3c4d',
        taskId: first.result!.task.id,
      },
    });
    expect(next.result!.task.status.state).toBe('TASK_STATE_COMPLETED');
    const delayed = await rpc('SendMessage', {
      message: { role: 'ROLE_USER', parts: [{ text: 'TCK' }], messageId: 'tck-delayed-complete-1a2b3c4d' },
      configuration: { returnImmediately: true },
    });
    expect(delayed.result!.task.status.state).not.toBe('TASK_STATE_COMPLETED');
  });
});
