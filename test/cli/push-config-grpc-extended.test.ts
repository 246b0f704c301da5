/**
 * What decision 0142 added to the calling side of the CLI, through the built CLI
 * against `concord serve --grpc-port 0` (the interop fixture agent: echo plus a bearer-guarded
 * extended card, webhooks allowed to loopback): `--binding grpc`; `card` probing the card's gRPC
 * interface with an HTTP/2 handshake (exit 0 when it answers, an error when nothing speaks
 * HTTP/2 there); `card --extended` with `--token`; `push-config create/get/list/delete`; and a
 * push config given with `send --push-url`, delivered to a webhook.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonServer, type JsonServer } from '../client/helpers/json-server.js';
import { startConcordServe, type RunningServer } from '../interop/matrix/servers.js';
import { join } from 'node:path';
import { concord, ndjson, ROOT, startConcord } from './cli-process.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startConcordServe();
}, 30_000);
afterAll(async () => {
  await server.close();
});

/** A task that waits until canceled, started over `via`. */
async function waitingTask(via: string[]): Promise<string> {
  const run = await concord(['send', server.url, 'wait', '--no-wait', '--json', ...via]);
  expect(run.code, run.stderr).toBe(0);
  return (ndjson(run.stdout)[0]!.task as { id: string }).id;
}

describe('concord card against a server with a gRPC interface', () => {
  it.each(['1.0', '0.3'])(
    'probes the gRPC interface as gRPC; the card is valid A2A %s, exit 0',
    async (v) => {
      const run = await concord(['card', server.url, '--card-version', v]);
      expect(run.stderr).toBe(`${server.url}: card is valid A2A ${v}\n`);
      expect(run.code).toBe(0);
      // The card does list the gRPC listener, so the probe above did go to it.
      expect(run.stdout).toContain(JSON.stringify(server.grpcTarget));
    },
  );

  it('a served example (examples/echo with --grpc-port 0): the card is valid, exit 0', async () => {
    const serve = startConcord([
      'serve',
      join(ROOT, 'examples/echo'),
      '--port',
      '0',
      '--grpc-port',
      '0',
      '--store',
      'memory',
    ]);
    try {
      const banner = await serve.until((s) => s.includes('agent card:'));
      const url = /serving "[^"]*" at (http:\/\/\S+\/)/.exec(banner)![1]!;
      const run = await concord(['card', url]);
      expect(run.stderr).toBe(`${url}: card is valid A2A 1.0\n`);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('"protocolBinding": "GRPC"');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });

  describe('a gRPC interface where nothing speaks HTTP/2', () => {
    let fake: JsonServer;
    let card: Record<string, unknown>;
    beforeAll(async () => {
      const served = (await (
        await fetch(`${server.url}.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })
      ).json()) as { supportedInterfaces: { url: string; protocolBinding: string }[] };
      fake = await startJsonServer({ '/.well-known/agent-card.json': () => ({ body: card }) });
      // The HTTP/1.1 server's own host:port: it answers HTTP, but no HTTP/2 session opens there.
      const http1 = new URL(fake.url).host;
      card = {
        ...served,
        supportedInterfaces: served.supportedInterfaces.map((i) =>
          i.protocolBinding === 'GRPC' ? { ...i, url: http1 } : i,
        ),
      };
    });
    afterAll(() => fake.close());

    it('is an error naming the interface; exit 1', async () => {
      const run = await concord(['card', fake.url]);
      expect(run.code).toBe(1);
      const host = new URL(fake.url).host;
      expect(run.stderr).toMatch(
        new RegExp(
          `error: /supportedInterfaces/\\d+/url: gRPC ${host.replace(/\./g, '\\.')} is not reachable \\(no HTTP/2: `,
        ),
      );
    });
  });

  it('--extended with --token prints the extended card, on any binding; without a token, exit 4', async () => {
    for (const binding of ['jsonrpc', 'grpc']) {
      const run = await concord([
        'card',
        server.url,
        '--extended',
        '--token',
        server.token,
        '--binding',
        binding,
      ]);
      expect(run.code, run.stderr).toBe(0);
      const card = JSON.parse(run.stdout) as { name: string; skills: { id: string }[] };
      expect(card.name).toBe(server.extendedName);
      expect(card.skills.map((s) => s.id)).toContain('secret');
      expect(run.stderr).toContain(`${server.url} (extended): card is valid A2A 1.0`);
    }
    const v03 = await concord(['card', server.url, '--extended', '--card-version', '0.3'], {
      CONCORD_TOKEN: server.token,
    });
    expect(v03.code, v03.stderr).toBe(0);
    expect(JSON.parse(v03.stdout)).toMatchObject({ name: server.extendedName, protocolVersion: '0.3.0' });
    const anonymous = await concord(['card', server.url, '--extended']);
    expect(anonymous.code).toBe(4);
    expect(anonymous.stderr).toMatch(/concord card: UnauthenticatedError: .*UNAUTHENTICATED/);
  });
});

describe('concord send --binding grpc', () => {
  it('runs the task over gRPC and says so', async () => {
    const run = await concord(['send', server.url, 'over grpc', '--binding', 'grpc']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Interface: GRPC 1.0 ${server.grpcTarget}\n`);
    expect(run.stdout).toContain('echo: over grpc');
  });
});

describe.each([
  ['jsonrpc', '1.0'],
  ['grpc', '0.3'],
])('concord push-config over %s %s', (binding, version) => {
  const via = ['--binding', binding, '--a2a-version', version];

  it('create, get, list, delete: human text, then --json', async () => {
    const task = await waitingTask(via);
    try {
      const created = await concord([
        'push-config',
        'create',
        server.url,
        task,
        '--push-url',
        server.webhookUrl,
        '--id',
        'h1',
        '--push-token',
        'secret-token',
        ...via,
      ]);
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout).toContain(`Push config: h1\nTask: ${task}\nURL: ${server.webhookUrl}\n`);
      expect(created.stdout).not.toContain('secret-token');

      const got = await concord(['push-config', 'get', server.url, task, 'h1', '--json', ...via]);
      expect(got.code, got.stderr).toBe(0);
      expect(ndjson(got.stdout)).toEqual([
        expect.objectContaining({ taskId: task, id: 'h1', url: server.webhookUrl }),
      ]);

      const listed = await concord(['push-config', 'list', server.url, task, '--json', ...via]);
      expect(listed.code, listed.stderr).toBe(0);
      const [page] = ndjson(listed.stdout) as { configs: { id: string }[] }[];
      expect(page!.configs.map((c) => c.id)).toEqual(['h1']);

      const deleted = await concord(['push-config', 'delete', server.url, task, 'h1', ...via]);
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(deleted.stdout).toBe(`Deleted push config: h1\nTask: ${task}\n`);

      const empty = await concord(['push-config', 'list', server.url, task, ...via]);
      expect(empty.stdout).toBe('Push configs: 0\n');
      const gone = await concord(['push-config', 'get', server.url, task, 'h1', ...via]);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toMatch(/^concord push-config: .*not found/);
    } finally {
      await concord(['cancel', server.url, task]);
    }
  });
});

describe('concord send --push-url', () => {
  it('gives the push config with the send; the agent delivers to it with the token', async () => {
    const token = `inline-${crypto.randomUUID()}`;
    const sent = await concord([
      'send',
      server.url,
      'wait',
      '--no-wait',
      '--json',
      '--push-url',
      server.webhookUrl,
      '--push-token',
      token,
    ]);
    expect(sent.code, sent.stderr).toBe(0);
    const task = (ndjson(sent.stdout)[0]!.task as { id: string }).id;
    const listed = await concord(['push-config', 'list', server.url, task, '--json']);
    const [page] = ndjson(listed.stdout) as { configs: { url: string }[] }[];
    expect(page!.configs.map((c) => c.url)).toEqual([server.webhookUrl]);
    expect((await concord(['cancel', server.url, task])).code).toBe(0);
    const delivered = await server.waitForPush(task, 'canceled');
    expect(delivered.token).toBe(token);
    expect(delivered.body).toContain('TASK_STATE_CANCELED');
  });
});
