/**
 * Without an OpenTelemetry SDK the client injects nothing (decision 0157): a bare HTTP server on
 * a real socket records the headers of a JSON-RPC SendMessage. Registering W3C propagators alone,
 * with no tracer provider, still sends nothing: the client's span is the API's no-op one, whose
 * context is invalid.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propagation } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { A2AClient } from '../../src/client/index.js';
import type { AgentCard } from '../../src/protocol/index.js';

const received: IncomingHttpHeaders[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    received.push(request.headers);
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { id } = JSON.parse(body) as { id: unknown };
      const message = { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: 'ok' }] };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ jsonrpc: '2.0', id, result: { message } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function client(): A2AClient {
  const card: AgentCard = {
    name: 'Bare',
    description: 'Records headers',
    version: '1.0.0',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
  return new A2AClient({ card, allowPrivateNetworks: true });
}

const send = (c: A2AClient) =>
  c.sendMessage({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } });

describe('A2AClient without an OpenTelemetry SDK', () => {
  it('sends no traceparent, tracestate or baggage', async () => {
    received.length = 0;
    const c = client();
    try {
      const response = await send(c);
      expect('message' in response).toBe(true);
    } finally {
      c.close();
    }
    expect(received).toHaveLength(1);
    expect(received[0]!.traceparent).toBeUndefined();
    expect(received[0]!.tracestate).toBeUndefined();
    expect(received[0]!.baggage).toBeUndefined();
  });

  it('sends none either with propagators registered but no tracer provider', async () => {
    propagation.setGlobalPropagator(
      new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    );
    received.length = 0;
    const c = client();
    try {
      await send(c);
    } finally {
      c.close();
    }
    expect(received).toHaveLength(1);
    expect(received[0]!.traceparent).toBeUndefined();
  });
});
