/**
 * One trace across the pipeline example's three agents (examples/pipeline: coordinator →
 * researcher → reviewer), run as a user runs it: two `concord serve --otlp <receiver>` processes
 * exporting to an OTLP/HTTP receiver on a real socket in this test (test/helpers/otlp-receiver.ts),
 * the question sent with a traceparent of the test's own (W3C Trace Context; decision 0157).
 *
 * The example reaches the researcher and the reviewer by host id, in process. To put real hops
 * between them, a copy of it is split over two hosts and its coordinator sends to URLs instead:
 * - host A: `coordinator` and `reviewer` (both exposed; HTTP only);
 * - host B: `researcher` alone (HTTP and `--grpc-port`: a host serves gRPC for one exposed agent only).
 * A URL target of `context.agents.send` goes through Concord's client (src/host/remote-agents.ts),
 * which talks to the first interface of the target's card it speaks (A2A 1.0 §8.3.2,
 * src/client/card/interface-selection.ts); a Concord card lists JSON-RPC first, then HTTP+JSON,
 * then gRPC, and the host config has no binding preference for outbound sends. So the coordinator
 * is given card URLs ending in `.json` (taken as the card's own URL, src/client/card/card-resolver.ts)
 * on a card server in this test that serves the real card with its interfaces narrowed to the binding
 * wanted, `cache-control: no-store` so the host's card cache refetches it on every send:
 * - researcher: HTTP+JSON, then gRPC (the gRPC case);
 * - reviewer: JSON-RPC.
 *
 * Checked for each case: every span the agents' processes export for the question carries the
 * test's trace id; the coordinator's SERVER `SendMessage` span is the child of the test's span;
 * the researcher's and the reviewer's SERVER spans are children of CLIENT spans of the
 * coordinator's operation, on the binding of the hop; `invoke_agent <agent>` spans exist under each
 * agent's SERVER span. With a push config on the task, the webhook's POST carries a traceparent of
 * that trace whose parent is a `SendPushNotification` CLIENT span under the operation.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSON5 from 'json5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTR, SPAN } from '../../src/telemetry/conventions.js';
import { ROOT } from '../cli/cli-process.js';
import {
  describeSpans,
  KIND,
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from '../helpers/otlp-receiver.js';

const CLI = join(ROOT, 'dist/cli/main.js');
const EXAMPLE = join(ROOT, 'examples/pipeline');
/** The test's own span: the parent of the coordinator's SERVER span. */
const TEST_SPAN = '00f067aa0ba902b7';
const TRACE = {
  http: '4bf92f3577b34da6a3ce929d0e0e4736',
  grpc: '0af7651916cd43dd8448eb211c80319c',
  push: '5b8efff798038103d269b633813fc60c',
};
const AGENTS = ['coordinator', 'researcher', 'reviewer'] as const;

/** How a served process is told to export (the `concord serve` flag of decision 0157). */
const telemetryFlags = (receiverUrl: string): string[] => ['--otlp', receiverUrl];

interface Served {
  child: ChildProcess;
  url: string;
  grpc?: string;
  output: () => string;
}

/** `concord serve <dir> --port 0 --store memory ...` as a child process, once it listens. */
async function serve(dir: string, extra: string[], env: Record<string, string>): Promise<Served> {
  const { CONCORD_TOKEN: _t, CONCORD_API_KEY: _k, ...rest } = process.env;
  const child = spawn(process.execPath, [CLI, 'serve', dir, '--port', '0', '--store', 'memory', ...extra], {
    env: { ...rest, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`concord serve did not start in 10 s:\n${out}`)), 10_000);
    const check = (): void => {
      if (!out.includes('task stores:') || (extra.includes('--grpc-port') && !/gRPC: \S+/.test(out))) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`concord serve exited ${code} before listening:\n${out}`));
    });
  });
  const url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)![1]!;
  const grpc = /gRPC: (\S+)/.exec(out)?.[1];
  return { child, url, ...(grpc === undefined ? {} : { grpc }), output: () => out };
}

async function stop(served: Served | undefined): Promise<void> {
  if (served === undefined || served.child.exitCode !== null) return;
  const exited = new Promise((resolve) => served.child.on('exit', resolve));
  served.child.kill('SIGTERM');
  await exited;
}

async function listenOn(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let receiver: OtlpReceiver;
let cardServer: Server;
let webhook: Server;
let webhookUrl: string;
const pushes: { headers: IncomingHttpHeaders; body: string }[] = [];
let hostA: Served | undefined;
let hostB: Served | undefined;
let dir: string;
/** The binding the researcher's card offers (the reviewer's is always JSON-RPC). */
let researcherBinding: 'HTTP+JSON' | 'GRPC' = 'HTTP+JSON';
/** The real cards, fetched once before any question so no card fetch lands in a question's spans. */
const cards = new Map<
  string,
  { supportedInterfaces: { protocolBinding: string; protocolVersion: string }[] }
>();

/** Host configs from the example's own: the same agents, split over two hosts. */
function writeHosts(): { a: string; b: string } {
  const config = JSON5.parse(readFileSync(join(EXAMPLE, 'concord.config.json5'), 'utf8')) as {
    agents: { list: { id: string; exposed?: boolean }[] };
  };
  const agent = (id: string) => ({ ...config.agents.list.find((a) => a.id === id)!, exposed: true });
  const a = join(dir, 'host-a');
  const b = join(dir, 'host-b');
  for (const host of [a, b]) cpSync(EXAMPLE, host, { recursive: true });
  writeFileSync(
    join(a, 'concord.config.json5'),
    JSON.stringify({
      // The remote targets and the webhook are on loopback (decisions 0031, 0086).
      outbound: { allowedHosts: ['127.0.0.1'] },
      push: { allow: ['127.0.0.1'] },
      agents: { list: [agent('coordinator'), agent('reviewer')] },
    }),
  );
  writeFileSync(join(b, 'concord.config.json5'), JSON.stringify({ agents: { list: [agent('researcher')] } }));
  // The coordinator sends to URLs given in its environment instead of host ids.
  const coordinator = join(a, 'coordinator.mjs');
  const source = readFileSync(coordinator, 'utf8');
  const rewritten = source
    .replace("context.agents.send('researcher',", 'context.agents.send(process.env.PIPELINE_RESEARCHER_URL,')
    .replace("context.agents.send('reviewer',", 'context.agents.send(process.env.PIPELINE_REVIEWER_URL,');
  expect(rewritten.match(/process\.env\.PIPELINE_/g), 'the example still sends by host id').toHaveLength(2);
  writeFileSync(coordinator, rewritten);
  return { a, b };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-pipeline-trace-'));
  receiver = await startOtlpReceiver();
  cardServer = createServer((request, response) => {
    const which = /^\/(researcher|reviewer)\.json$/.exec(request.url ?? '')?.[1];
    const card = which === undefined ? undefined : cards.get(which);
    if (card === undefined) {
      response.writeHead(404).end();
      return;
    }
    const binding = which === 'researcher' ? researcherBinding : 'JSONRPC';
    const narrowed = {
      ...card,
      supportedInterfaces: card.supportedInterfaces.filter(
        (i) => i.protocolBinding === binding && i.protocolVersion === '1.0',
      ),
    };
    response
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify(narrowed));
  });
  const cardsUrl = await listenOn(cardServer);
  webhook = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      pushes.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  webhookUrl = `${await listenOn(webhook)}/hook`;

  const { a, b } = writeHosts();
  const env = {
    // Exports every 100 ms instead of the BatchSpanProcessor's 5 s, so the spans arrive while the test waits.
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_METRIC_EXPORT_INTERVAL: '200',
    PIPELINE_RESEARCHER_URL: `${cardsUrl}/researcher.json`,
    PIPELINE_REVIEWER_URL: `${cardsUrl}/reviewer.json`,
  };
  [hostA, hostB] = await Promise.all([
    serve(a, telemetryFlags(receiver.url), { ...env, OTEL_SERVICE_NAME: 'pipeline-host-a' }),
    serve(b, [...telemetryFlags(receiver.url), '--grpc-port', '0'], {
      ...env,
      OTEL_SERVICE_NAME: 'pipeline-host-b',
    }),
  ]);
  for (const [name, url] of [
    ['researcher', `${hostB.url}agents/researcher/`],
    ['reviewer', `${hostA.url}agents/reviewer/`],
  ] as const) {
    const response = await fetch(`${url}.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } });
    cards.set(name, (await response.json()) as never);
  }
  // Whatever those card fetches export lands before the first case clears the receiver.
  await new Promise((resolve) => setTimeout(resolve, 500));
}, 20_000);

afterAll(async () => {
  await Promise.all([stop(hostA), stop(hostB)]);
  await receiver?.close();
  cardServer?.closeAllConnections();
  cardServer?.close();
  webhook?.closeAllConnections();
  webhook?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface WireTask {
  id: string;
  status: { state: string };
  artifacts?: { parts: { text?: string }[] }[];
}

/** Asks the coordinator over JSON-RPC, as a caller already inside trace `traceId` (span TEST_SPAN). */
async function ask(traceId: string, configuration: Record<string, unknown> = {}): Promise<WireTask> {
  const response = await fetch(`${hostA!.url}agents/coordinator`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      traceparent: `00-${traceId}-${TEST_SPAN}-01`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: crypto.randomUUID(),
          role: 'ROLE_USER',
          parts: [{ text: 'agent interoperability | 2' }],
        },
        configuration,
      },
    }),
  });
  const body = (await response.json()) as { result?: { task?: WireTask }; error?: unknown };
  if (body.result?.task === undefined) {
    throw new Error(
      `SendMessage failed: ${JSON.stringify(body)}\nhost A:\n${hostA!.output()}\nhost B:\n${hostB!.output()}`,
    );
  }
  return body.result.task;
}

/** The span's ancestors among `spans`, nearest first. */
function ancestors(span: ReceivedSpan, spans: readonly ReceivedSpan[]): ReceivedSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const out: ReceivedSpan[] = [];
  for (
    let parent = byId.get(span.parentSpanId);
    parent !== undefined;
    parent = byId.get(parent.parentSpanId)
  ) {
    if (out.includes(parent)) break;
    out.push(parent);
  }
  return out;
}

const invokeAgent = (spans: readonly ReceivedSpan[], agent: string) =>
  spans.find((s) => s.name === SPAN.invokeAgent(agent));

/**
 * The spans once `check` passes on them, or what arrived in `timeoutMs` when it never does: the
 * processes export in batches, so a case waits for its whole picture and then asserts on it, and the
 * assertion (not a timeout) says what is missing.
 */
async function settled(
  check: (spans: readonly ReceivedSpan[]) => unknown,
  timeoutMs = 8_000,
): Promise<ReceivedSpan[]> {
  const passes = (spans: readonly ReceivedSpan[]): boolean => {
    try {
      check(spans);
      return true;
    } catch {
      return false;
    }
  };
  return receiver.waitFor(passes, timeoutMs).catch(() => receiver.spans);
}

/** The SERVER span `agent`'s execution ran under: the nearest SERVER ancestor of its `invoke_agent` span. */
function serverSpanOf(spans: readonly ReceivedSpan[], agent: string): ReceivedSpan {
  const invoke = invokeAgent(spans, agent)!;
  const server = ancestors(invoke, spans).find((s) => s.kind === KIND.server);
  expect(server, `no SERVER span above ${SPAN.invokeAgent(agent)}:\n${describeSpans(spans)}`).toBeDefined();
  return server!;
}

/** The checks every case shares; returns the coordinator's SERVER span. */
function checkPipelineTrace(
  received: readonly ReceivedSpan[],
  traceId: string,
  researcherHop: 'HTTP+JSON' | 'GRPC',
): ReceivedSpan {
  const listing = `\n${describeSpans(received)}`;
  // A span of an earlier case may still be in flight; any other trace id is a span that lost the context.
  const foreign = received.filter((s) => !Object.values(TRACE).includes(s.traceId));
  expect(foreign, `spans outside the test's traces (expected ${traceId}):${listing}`).toEqual([]);
  const spans = received.filter((s) => s.traceId === traceId);
  expect(new Set(spans.map((s) => s.spanId)).size, `span ids repeat:${listing}`).toBe(spans.length);

  for (const agent of AGENTS) {
    const invoke = invokeAgent(spans, agent);
    expect(invoke, `a ${SPAN.invokeAgent(agent)} span:${listing}`).toBeDefined();
    expect(invoke!.attributes[ATTR.agentName], `${SPAN.invokeAgent(agent)}'s ${ATTR.agentName}`).toBe(agent);
  }
  const coordinator = serverSpanOf(spans, 'coordinator');
  expect(coordinator, `the coordinator's SERVER span:${listing}`).toMatchObject({
    parentSpanId: TEST_SPAN,
    name: 'SendMessage',
    attributes: { [ATTR.method]: 'SendMessage', [ATTR.binding]: 'JSONRPC' },
  });
  for (const [agent, binding] of [
    ['researcher', researcherHop],
    ['reviewer', 'JSONRPC'],
  ] as const) {
    const server = serverSpanOf(spans, agent);
    expect(server, `the ${agent}'s SERVER span:${listing}`).toMatchObject({
      name: 'SendMessage',
      attributes: { [ATTR.method]: 'SendMessage', [ATTR.binding]: binding },
    });
    const client = spans.find((s) => s.spanId === server.parentSpanId);
    expect(client, `the parent of the ${agent}'s SERVER span:${listing}`).toMatchObject({
      kind: KIND.client,
      attributes: { [ATTR.method]: 'SendMessage', [ATTR.binding]: binding },
    });
    // The CLIENT span is the coordinator's: it descends from the coordinator's SERVER span.
    expect(
      ancestors(client!, spans),
      `the ${agent} hop's CLIENT span under the coordinator:${listing}`,
    ).toContain(coordinator);
  }
  return coordinator;
}

describe('one trace across the pipeline example (concord serve --otlp)', () => {
  it('links coordinator → researcher over HTTP+JSON and → reviewer over JSON-RPC', async () => {
    researcherBinding = 'HTTP+JSON';
    receiver.clear();
    const task = await ask(TRACE.http);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0]?.parts.map((p) => p.text ?? '').join('')).toContain('reviewer: approved');
    const check = (spans: readonly ReceivedSpan[]) => checkPipelineTrace(spans, TRACE.http, 'HTTP+JSON');
    check(await settled(check));
  }, 20_000);

  it('links the researcher hop over gRPC the same way', async () => {
    researcherBinding = 'GRPC';
    receiver.clear();
    const task = await ask(TRACE.grpc);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const check = (spans: readonly ReceivedSpan[]) => checkPipelineTrace(spans, TRACE.grpc, 'GRPC');
    check(await settled(check));
  }, 20_000);

  it("carries the trace to a push delivery: the webhook's traceparent is a SendPushNotification span under the operation", async () => {
    researcherBinding = 'HTTP+JSON';
    receiver.clear();
    pushes.length = 0;
    const task = await ask(TRACE.push, {
      taskPushNotificationConfig: { url: webhookUrl, token: 'pipeline-token' },
    });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const check = (received: readonly ReceivedSpan[]): void => {
      const coordinator = checkPipelineTrace(received, TRACE.push, 'HTTP+JSON');
      const spans = received.filter((s) => s.traceId === TRACE.push);
      const listing = `\n${describeSpans(spans)}`;
      const deliveries = spans.filter((s) => s.name === SPAN.push);
      expect(deliveries.length, `${SPAN.push} spans:${listing}`).toBeGreaterThan(0);
      for (const delivery of deliveries) {
        expect(delivery.kind, `${SPAN.push} is a CLIENT span:${listing}`).toBe(KIND.client);
        expect(
          ancestors(delivery, spans),
          `${SPAN.push} under the coordinator's operation:${listing}`,
        ).toContain(coordinator);
      }
      expect(pushes.length, 'webhook POSTs').toBeGreaterThan(0);
      for (const push of pushes) {
        const traceparent = String(push.headers.traceparent);
        const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(traceparent);
        expect(match?.[1], `the webhook's traceparent ${traceparent}`).toBe(TRACE.push);
        expect(
          deliveries.map((d) => d.spanId),
          `the webhook's traceparent ${traceparent} names a ${SPAN.push} span:${listing}`,
        ).toContain(match![2]);
        expect(push.headers['x-a2a-notification-token']).toBe('pipeline-token');
      }
    };
    check(await settled(check));
  }, 20_000);
});
