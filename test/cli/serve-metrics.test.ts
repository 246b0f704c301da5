/**
 * `concord serve --metrics` (decision 0158): a Prometheus scrape at `/metrics` on the agent's own
 * listener, outside its auth. N requests move the server's request counter by exactly N, read with
 * a real Prometheus text parser. Also: /metrics is absent without the flag.
 */
// @ts-expect-error: the package ships no type declarations; its shape is written below.
import parsePrometheus from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { sendText, serve } from './serve-helpers.js';

interface Family {
  name: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string> }[];
}
const parse = parsePrometheus as (text: string) => Family[];

/** The request counter of Concord's conventions (METRIC.requests) as the Prometheus exporter names it. */
const REQUESTS = 'a2a_server_requests_total';

async function scrape(url: string): Promise<Family[]> {
  const response = await fetch(`${url}metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return parse(await response.text());
}

function total(families: Family[], name: string): number {
  const family = families.find((f) => f.name === name);
  return (family?.metrics ?? []).reduce((sum, metric) => sum + Number(metric.value ?? 0), 0);
}

describe('concord serve --metrics', () => {
  it('serves a Prometheus scrape whose request counter moves by exactly the requests sent', async () => {
    const served = await serve(['examples/echo', '--port', '0', '--store', 'memory', '--metrics']);
    try {
      const before = await scrape(served.url);
      expect(before.find((f) => f.name === 'target_info')?.metrics[0]?.labels).toMatchObject({
        service_name: 'concord',
      });
      const N = 7;
      for (let i = 0; i < N; i++) {
        const response = await sendText(served.url, `hello ${i}`);
        expect(response.status).toBe(200);
        await response.text();
      }
      const after = await scrape(served.url);
      expect(total(after, REQUESTS) - total(before, REQUESTS)).toBe(N);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });

  it('leaves /metrics to the agent without the flag', async () => {
    const served = await serve(['examples/echo', '--port', '0', '--store', 'memory']);
    try {
      expect((await fetch(`${served.url}metrics`)).status).not.toBe(200);
    } finally {
      await served.stop();
    }
  });
});
