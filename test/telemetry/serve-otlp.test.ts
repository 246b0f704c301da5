/**
 * `concord serve --otlp` end to end (decisions 0157-0158): a local HTTP receiver stands in for the
 * collector. The process sends OTLP/HTTP JSON to <base>/v1/traces with the resource Concord sets
 * (service.name from OTEL_SERVICE_NAME, service.version), its SERVER span of the operation, and
 * flushes what it buffered when SIGTERM stops it.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { sendText, serve } from '../cli/serve-helpers.js';

interface Received {
  path: string;
  body: Record<string, unknown>;
}

async function receiver() {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      try {
        received.push({ path: req.url ?? '', body: JSON.parse(text) as Record<string, unknown> });
      } catch {
        received.push({ path: req.url ?? '', body: {} });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Attribute = { key: string; value: { stringValue?: string } };
type ResourceSpans = {
  resource: { attributes: Attribute[] };
  scopeSpans: { spans: { name: string; kind: number }[] }[];
};

describe('concord serve --otlp', () => {
  it(
    'exports the operation spans with the service resource, flushed on SIGTERM',
    { timeout: 30_000 },
    async () => {
      const collector = await receiver();
      try {
        const served = await serve(
          ['examples/echo', '--port', '0', '--store', 'memory', '--otlp', `${collector.url}/`],
          {
            OTEL_SERVICE_NAME: 'otlp-test',
            // Long enough that only the flush at shutdown sends them.
            OTEL_BSP_SCHEDULE_DELAY: '60000',
            OTEL_METRIC_EXPORT_INTERVAL: '60000',
          },
        );
        expect(served.stdout()).not.toContain('do not record');
        const response = await sendText(served.url, 'hello');
        expect(response.status).toBe(200);
        await response.text();
        expect(await served.stop('SIGTERM')).toBe(0);
        const traces = collector.received.filter((r) => r.path === '/v1/traces');
        expect(traces.length).toBeGreaterThan(0);
        const resourceSpans = traces.flatMap((r) => r.body.resourceSpans as ResourceSpans[]);
        const attributes = Object.fromEntries(
          resourceSpans[0]!.resource.attributes.map((a) => [a.key, a.value.stringValue]),
        );
        expect(attributes['service.name']).toBe('otlp-test');
        expect(attributes['service.version']).toMatch(/^\d+\.\d+\.\d+/);
        const spans = resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
        // SpanKind SERVER is 2 in OTLP.
        expect(spans.some((span) => span.name === 'SendMessage' && span.kind === 2)).toBe(true);
      } finally {
        await collector.close();
      }
    },
  );
});
