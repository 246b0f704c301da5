/**
 * The host's agent sender carries the execution's trace context on (decision 0157): the sender
 * bound with `forMessage(message, trace)` sends in process under a CLIENT span, with a SERVER
 * span for the target whose context is the target's `call.trace`; a send to a URL goes through
 * Concord's client, whose CLIENT span (under the same context) is what the remote's `traceparent`
 * names. Real components: an A2A server's handler in process, the echo server on a real socket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, SpanKind, trace, type Context } from '@opentelemetry/api';
import { createAgentSender } from '../../src/host/agent-sender.js';
import { createRemoteAgents } from '../../src/host/remote-agents.js';
import type { Message } from '../../src/protocol/index.js';
import { createA2AServer, type AgentSender } from '../../src/server/index.js';
import { ATTR, IN_PROCESS_BINDING } from '../../src/telemetry/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { registerSdk } from './test-sdk.js';

const sdk = registerSdk({ contextManager: true });

const researcherCard = {
  name: 'Researcher',
  description: 'Knows things',
  version: '1.0.0',
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'know', name: 'Know', description: 'Knows', tags: ['facts'] }],
};

/** The call trace contexts the researcher's executions were given. */
const seenTraces: (Context | undefined)[] = [];
const researcher = createA2AServer({
  agentCard: researcherCard,
  executor: {
    execute(context, updater) {
      seenTraces.push(context.call.trace);
      updater.complete(updater.agentMessage('Tides follow the moon.'));
    },
  },
});

const traceparents: (string | undefined)[] = [];
let echo: EchoServer;
beforeAll(async () => {
  echo = await startEcho({
    authenticate: (request) => {
      traceparents.push(request.header('traceparent'));
      return undefined;
    },
  });
});
afterAll(async () => {
  await echo.close();
  await researcher.close();
});

const incoming: Message = { messageId: 'm-in', role: 'ROLE_USER', parts: [{ text: 'ask around' }] };

function boundSender(trace: Context): AgentSender {
  const sender = createAgentSender({
    from: 'coordinator',
    local: (id) => (id === 'researcher' ? researcher.handler : undefined),
    remote: createRemoteAgents({ allowPrivateNetworks: true }),
  });
  return sender.forMessage!(incoming, trace);
}

describe('an in-process send', () => {
  it('is a CLIENT span under the bound trace, a SERVER span below it, handed to the target as call.trace', async () => {
    sdk.exporter.reset();
    seenTraces.length = 0;
    const execution = trace.getTracer('test').startSpan('invoke_agent coordinator', {}, ROOT_CONTEXT);
    const response = await boundSender(trace.setSpan(ROOT_CONTEXT, execution)).send('researcher', 'What?');
    execution.end();
    expect('task' in response || 'message' in response).toBe(true);

    const client = await sdk.span('SendMessage', SpanKind.CLIENT);
    const server = await sdk.span('SendMessage', SpanKind.SERVER);
    expect(client.spanContext().traceId).toBe(execution.spanContext().traceId);
    expect(client.parentSpanContext?.spanId).toBe(execution.spanContext().spanId);
    expect(server.spanContext().traceId).toBe(execution.spanContext().traceId);
    expect(server.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
    expect(server.attributes).toMatchObject({
      [ATTR.method]: 'SendMessage',
      [ATTR.binding]: IN_PROCESS_BINDING,
      [ATTR.agentName]: 'researcher',
    });
    expect(client.attributes[ATTR.binding]).toBe(IN_PROCESS_BINDING);

    expect(seenTraces).toHaveLength(1);
    expect(trace.getSpanContext(seenTraces[0]!)?.spanId).toBe(server.spanContext().spanId);
  });

  it('ends both spans with the error when the target refuses', async () => {
    sdk.exporter.reset();
    const execution = trace.getTracer('test').startSpan('invoke_agent coordinator', {}, ROOT_CONTEXT);
    await expect(
      boundSender(trace.setSpan(ROOT_CONTEXT, execution)).send('researcher', 'More?', {
        taskId: 'no-such-task',
      }),
    ).rejects.toThrow();
    execution.end();
    const client = await sdk.span('SendMessage', SpanKind.CLIENT);
    const server = await sdk.span('SendMessage', SpanKind.SERVER);
    expect(client.attributes[ATTR.errorType]).toBe('TaskNotFoundError');
    expect(server.attributes[ATTR.errorType]).toBe('TaskNotFoundError');
  });
});

describe('a send to a URL', () => {
  it("carries traceparent naming the client's CLIENT span, under the bound trace", async () => {
    sdk.exporter.reset();
    traceparents.length = 0;
    const execution = trace.getTracer('test').startSpan('invoke_agent coordinator', {}, ROOT_CONTEXT);
    const response = await boundSender(trace.setSpan(ROOT_CONTEXT, execution)).send(echo.url, 'hello');
    execution.end();
    expect('task' in response).toBe(true);

    const client = await sdk.span('SendMessage', SpanKind.CLIENT);
    expect(client.parentSpanContext?.spanId).toBe(execution.spanContext().spanId);
    expect(client.attributes[ATTR.binding]).toBe('JSONRPC');
    expect(traceparents).toEqual([`00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`]);
  });
});
