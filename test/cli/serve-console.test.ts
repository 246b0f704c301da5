/**
 * Where `concord serve` serves the console, and how (decision 0159): on by default on a loopback
 * listener, off on any other unless --console, off everywhere with --no-console; the page and its
 * files under a strict Content-Security-Policy; the session route open on a host without
 * security and saying which listener it is; the flags' usage errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../src/host/console/console-assets.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { serve, type Served } from './serve-helpers.js';

const running: Served[] = [];
afterEach(async () => {
  for (const served of running.splice(0)) await served.stop();
});

async function start(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const served = await serve(['examples/pipeline', '--port', '0', '--store', 'memory', ...args], env);
  running.push(served);
  return served;
}

describe('concord serve: the console', () => {
  it('serves the page, its script and its styles under a strict CSP on a loopback listener', async () => {
    const served = await start([]);
    const moved = await fetch(`${served.url}console`, { redirect: 'manual' });
    expect(moved.status).toBe(308);
    expect(moved.headers.get('location')).toBe('console/');
    const page = await fetch(`${served.url}console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("default-src 'none'");
    expect(CONSOLE_CSP).not.toContain('unsafe');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('<script type="module" src="console.js"></script>');
    expect(html).not.toMatch(/<script>|<style>| style="/);
    const script = await fetch(`${served.url}console/console.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    const etag = script.headers.get('etag')!;
    expect((await script.text()).length).toBeGreaterThan(1000);
    expect(
      (await fetch(`${served.url}console/console.js`, { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
    expect((await fetch(`${served.url}console/console.css`)).headers.get('content-type')).toMatch(
      /^text\/css/,
    );
    expect((await fetch(`${served.url}console/missing.js`)).status).toBe(404);
    expect((await fetch(`${served.url}console/`, { method: 'POST' })).status).toBe(405);
    await expect.poll(() => served.stdout()).toContain(`console: ${served.url}console/`);
  });

  it('answers the session of a host without security: the listener, nobody signed in', async () => {
    const served = await start(['--internal-port', '0']);
    const session = await fetch(`${served.url}console/api/session`);
    expect(session.status).toBe(200);
    expect(await session.json()).toEqual({
      listener: 'public',
      principal: null,
      scopes: [],
      secured: false,
      traceUrl: null,
    });
    await expect.poll(() => served.stdout().match(/console: http/g)?.length).toBe(2);
    const internal = /internal listener: (http:\/\/\S+)/.exec(served.stdout())![1]!;
    const inner = (await (await fetch(`${internal}console/api/session`)).json()) as { listener: string };
    expect(inner.listener).toBe('internal');
    expect(await (await fetch(`${served.url}console/api/schemes`)).json()).toEqual({ schemes: [] });
    const trace = await fetch(`${served.url}console/api/traces?agent=coordinator`);
    expect(trace.status).toBe(400);
    expect(((await trace.json()) as { error: { message: string } }).error.message).toContain('task');
  });

  it('is off with --no-console, and off by default on a listener other hosts can reach', async () => {
    const off = await start(['--no-console']);
    expect((await fetch(`${off.url}console/`)).status).toBe(404);
    const wide = await start(['--host', '0.0.0.0']);
    const url = wide.url.replace('0.0.0.0', '127.0.0.1');
    expect((await fetch(`${url}console/`)).status).toBe(404);
    expect(wide.stdout()).not.toContain('console:');
    const on = await start([
      '--host',
      '0.0.0.0',
      '--console',
      '--console-trace-url',
      'http://jaeger.test/trace/{traceId}',
    ]);
    const session = (await (
      await fetch(`${on.url.replace('0.0.0.0', '127.0.0.1')}console/api/session`)
    ).json()) as {
      traceUrl: string;
    };
    expect(session.traceUrl).toBe('http://jaeger.test/trace/{traceId}');
  });

  it('links a task to the trace of its first call when the process traces', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const served = await start(['--otlp', receiver.url, '--internal-port', '0'], {
        OTEL_BSP_SCHEDULE_DELAY: '100',
      });
      await expect.poll(() => served.stdout()).toContain('internal listener:');
      const internal = /internal listener: (http:\/\/\S+)/.exec(served.stdout())![1]!;
      const sent = await fetch(`${internal}agents/researcher/message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({
          message: {
            messageId: crypto.randomUUID(),
            role: 'ROLE_USER',
            parts: [{ data: { _a2a: true, contract: 'research.query', payload: { topic: 'tides' } } }],
          },
        }),
      });
      expect(sent.status).toBe(200);
      const { task } = (await sent.json()) as { task: { id: string } };
      const answer = await fetch(`${internal}console/api/traces?agent=researcher&task=${task.id}`);
      expect(answer.status).toBe(200);
      const { traceId } = (await answer.json()) as { traceId: string };
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      // The id is the trace the exporter sent for that call.
      const spans = await receiver.waitFor((all) =>
        all.some((s) => s.traceId === traceId && s.name === 'SendMessage'),
      );
      expect(spans.some((s) => s.traceId === traceId)).toBe(true);
      const unknown = await fetch(`${internal}console/api/traces?agent=researcher&task=nope`);
      expect(unknown.status).toBe(200);
      expect(await unknown.json()).toEqual({ traceId: null });
    } finally {
      await receiver.close();
    }
  });

  it('refuses contradicting or malformed console flags with a usage error', async () => {
    for (const [args, message] of [
      [['--console', '--no-console'], 'contradict'],
      [['--console-trace-url', 'ftp://x/{traceId}'], 'expected an http(s) URL'],
      [['--console-trace-url', 'http://jaeger.test/trace'], '{traceId}'],
    ] as const) {
      const failed = serve(['examples/pipeline', '--port', '0', '--store', 'memory', ...args]);
      await expect(failed).rejects.toThrow(message);
    }
  });
});
