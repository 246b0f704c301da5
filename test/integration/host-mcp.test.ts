/**
 * MCP servers of model agents (decision 0023), end to end: a real stdio MCP server (official SDK,
 * server side, test/integration/fixtures/mcp) and a streamable HTTP one, the OpenAI-compatible stub
 * driving the tool calls, the host on a real socket. The seed's ProcessOrder file is served as
 * written; an agent naming a server the host does not define, a tool the server does not offer, or
 * a server that cannot start stops the host from starting, naming file, line and field.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { DefinitionError, loadHost, startHost, type RunningHost } from '../../src/host/index.js';
import { startOpenAiStub, type OpenAiStub, type StubReply } from '../helpers/openai-stub.js';

// Wire JSON read in assertions; its shape is what is under test.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const ROOT = resolve(import.meta.dirname, '../..');
const ORDER_DB = join(import.meta.dirname, 'fixtures/mcp/order-db.mjs');
const SEED_AGENT = join(ROOT, 'examples/agents/process-order.md');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function directory(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-mcp-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function stub(replies: StubReply[]): Promise<OpenAiStub> {
  const started = await startOpenAiStub({ replies });
  cleanups.push(() => started.close());
  return started;
}

async function host(dir: string, openAi: OpenAiStub, env: Record<string, string> = {}): Promise<RunningHost> {
  const running = await startHost(dir, { store: 'memory', env: { OPENAI_BASE_URL: openAi.url, ...env } });
  cleanups.push(() => running.close());
  return running;
}

async function send(url: string, text: string): Promise<Json> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } },
    }),
  });
  return ((await response.json()) as Json).result.task;
}

const toolNames = (request: { body: Json }): string[] =>
  (request.body.tools ?? []).map((t: Json) => t.function.name as string);
const toolMessages = (request: { body: Json }): Json[] =>
  request.body.messages.filter((m: Json) => m.role === 'tool');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

/** A host config whose `order-db` is the fixture server, logging its calls and pid under `dir`. */
function orderDbConfig(dir: string): string {
  const env = { ORDER_DB_LOG: join(dir, 'calls.log'), ORDER_DB_PID: join(dir, 'server.pid') };
  return JSON.stringify({ mcpServers: { 'order-db': { command: 'node', args: [ORDER_DB], env } } });
}

describe('a model agent with MCP servers', () => {
  it("runs the seed's ProcessOrder as written: the model calls create_order on order-db and gets its result", async () => {
    const dir = directory({});
    cpSync(SEED_AGENT, join(dir, 'process-order.md'));
    writeFileSync(join(dir, 'concord.config.json5'), orderDbConfig(dir));
    const openAi = await stub([
      { toolCalls: [{ name: 'create_order', arguments: { sku: 'WIDGET-1', quantity: 2 } }] },
      { tokens: ['Order ', 'ORD-1 placed.'] },
    ]);
    const running = await host(dir, openAi);
    const pid = Number(readFileSync(join(dir, 'server.pid'), 'utf8'));

    const task = await send(running.url, 'two widgets please');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0].parts.map((p: Json) => p.text).join('')).toBe('Order ORD-1 placed.');
    // Offered: exactly the two tools the definition names, with the server's own schemas.
    const [first, second] = openAi.requests;
    expect(toolNames(first!)).toEqual(['create_order', 'validate_inventory']);
    expect((first!.body as Json).tools[0].function).toMatchObject({
      description: 'Creates an order',
      parameters: { type: 'object', required: ['sku', 'quantity'] },
    });
    // The call really ran on the server, and its result went back to the model.
    expect(readFileSync(join(dir, 'calls.log'), 'utf8')).toBe(
      'create_order {"sku":"WIDGET-1","quantity":2}\n',
    );
    expect(toolMessages(second!)).toEqual([
      { role: 'tool', tool_call_id: 'call_0_0', content: '{"id":"ORD-1","sku":"WIDGET-1","quantity":2}' },
    ]);
    const said = task.history.map((m: Json) => m.parts[0]?.text);
    expect(said).toContain('Using create_order (MCP server order-db)');

    await running.close();
    expect(await gone(pid)).toBe(true);
  });

  it('starts a server that went away again at the next call', async () => {
    const dir = directory({});
    cpSync(SEED_AGENT, join(dir, 'process-order.md'));
    const config = JSON.parse(orderDbConfig(dir)) as Json;
    config.mcpServers['order-db'].env.ORDER_DB_EXIT_AFTER = '1';
    writeFileSync(join(dir, 'concord.config.json5'), JSON.stringify(config));
    const order = { toolCalls: [{ name: 'create_order', arguments: { sku: 'GADGET-7', quantity: 1 } }] };
    const openAi = await stub([order, { tokens: ['one'] }, order, { tokens: ['two'] }]);
    const running = await host(dir, openAi);
    const first = Number(readFileSync(join(dir, 'server.pid'), 'utf8'));
    expect((await send(running.url, 'first')).status.state).toBe('TASK_STATE_COMPLETED');
    expect(await gone(first)).toBe(true);
    expect((await send(running.url, 'second')).status.state).toBe('TASK_STATE_COMPLETED');
    // A new process answered (its order numbers start again), not an error.
    expect(toolMessages(openAi.requests[3]!)[0].content).toBe('{"id":"ORD-1","sku":"GADGET-7","quantity":1}');
    expect(Number(readFileSync(join(dir, 'server.pid'), 'utf8'))).not.toBe(first);
  });

  it('serves examples/agents as written: ProcessOrder checks stock and orders on the example order-db', async () => {
    const secret = 'an-example-secret-of-at-least-32-bytes';
    const openAi = await stub([
      { toolCalls: [{ name: 'validate_inventory', arguments: { sku: 'GADGET-7', quantity: 3 } }] },
      { toolCalls: [{ name: 'create_order', arguments: { sku: 'GADGET-7', quantity: 3 } }] },
      { tokens: ['Ordered.'] },
    ]);
    const running = await host(join(ROOT, 'examples/agents'), openAi, { CONCORD_JWT_SECRET: secret });
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('partner')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(secret));
    const response = await fetch(`${running.url}agents/ProcessOrder/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${jwt}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: 'ex-1', role: 'ROLE_USER', parts: [{ text: '3 gadgets' }] } },
      }),
    });
    const task = ((await response.json()) as Json).result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(toolNames(openAi.requests[0]!)).toEqual(['send_to_agent', 'create_order', 'validate_inventory']);
    expect(JSON.parse(toolMessages(openAi.requests[1]!)[0].content as string)).toEqual({
      sku: 'GADGET-7',
      requested: 3,
      available: 4,
      inStock: true,
    });
    expect(JSON.parse(toolMessages(openAi.requests[2]!)[1].content as string)).toEqual({
      id: 'ORD-1',
      sku: 'GADGET-7',
      quantity: 3,
    });
  });

  it('hands refusals back to the model: a tool it may not use never reaches the server', async () => {
    const dir = directory({});
    cpSync(SEED_AGENT, join(dir, 'process-order.md'));
    writeFileSync(join(dir, 'concord.config.json5'), orderDbConfig(dir));
    const openAi = await stub([
      {
        toolCalls: [
          { name: 'cancel_all_orders', arguments: {} },
          { name: 'create_order', arguments: { sku: 'WIDGET-1', quantity: 0 } },
          { name: 'validate_inventory', arguments: '{"sku": ' },
        ],
      },
      { tokens: ['Sorry.'] },
    ]);
    const running = await host(dir, openAi);
    const task = await send(running.url, 'cancel everything');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const results = toolMessages(openAi.requests[1]!).map((m) => JSON.parse(m.content as string) as Json);
    expect(results[0].error).toBe(
      'Unknown tool "cancel_all_orders": the tools are create_order, validate_inventory',
    );
    expect(results[1].error).toBe('quantity must be a positive integer');
    expect(results[2].error).toMatch(/^The arguments are not valid JSON/);
    expect(readFileSync(join(dir, 'calls.log'), 'utf8')).toBe(
      'create_order {"sku":"WIDGET-1","quantity":0}\n',
    );
  });

  it('starts inline servers ({command, args, tools}) in the definition, offering all tools or the listed ones', async () => {
    const inline = (name: string, tools: string): string =>
      `---\nname: ${name}\nexposed: true\ndescription: d\nmodel: m\nmcpServers:\n  own-db:\n` +
      `    command: node\n    args: [${JSON.stringify(ORDER_DB)}]\n${tools}---\nPrompt.\n`;
    const dir = directory({
      'all.md': inline('all-tools', ''),
      'one.md': inline('one-tool', '    tools: [validate_inventory]\n'),
    });
    const openAi = await stub([{ tokens: ['ok'] }]);
    const running = await host(dir, openAi);
    await send(`${running.url}agents/all-tools/`, 'hi');
    await send(`${running.url}agents/one-tool/`, 'hi');
    // send_to_agent too: a host with two agents lets each send to the other.
    expect(toolNames(openAi.requests[0]!)).toEqual([
      'send_to_agent',
      'validate_inventory',
      'create_order',
      'cancel_all_orders',
    ]);
    expect(toolNames(openAi.requests[1]!)).toEqual(['send_to_agent', 'validate_inventory']);
  });

  it('uses a streamable HTTP server with the configured headers', async () => {
    const seen: (string | undefined)[] = [];
    const mcp = await httpMcpServer(seen);
    const dir = directory({
      'concord.config.json5': JSON.stringify({
        mcpServers: { search: { url: `${mcp.url}mcp`, headers: { authorization: { env: 'SEARCH_TOKEN' } } } },
      }),
      'searcher.md':
        '---\nname: searcher\nexposed: true\ndescription: Searches.\nmodel: m\nmcpServers:\n  search: [lookup]\n---\n',
    });
    const openAi = await stub([
      { toolCalls: [{ name: 'lookup', arguments: { query: 'a2a' } }] },
      { tokens: ['Found it.'] },
    ]);
    const running = await host(dir, openAi, { SEARCH_TOKEN: 'Bearer s3cret' });
    const task = await send(running.url, 'look up a2a');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(toolMessages(openAi.requests[1]!)[0].content).toBe('results for a2a');
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set(['Bearer s3cret']));
  });
});

describe('MCP servers and readiness (decision 0158)', () => {
  it('/readyz fails naming the agent and server while its MCP server is down, and recovers with it', async () => {
    const state: { down?: boolean } = {};
    const mcp = await httpMcpServer([], state);
    const dir = directory({
      'concord.config.json5': JSON.stringify({ mcpServers: { search: { url: `${mcp.url}mcp` } } }),
      'searcher.md':
        '---\nname: searcher\nexposed: true\ndescription: Searches.\nmodel: m\nmcpServers:\n  search: [lookup]\n---\n',
    });
    const running = await host(dir, await stub([]));
    const ready = async (): Promise<{ status: number; body: Json }> => {
      const response = await fetch(new URL('/readyz', running.url));
      return { status: response.status, body: await response.json() };
    };
    expect(await ready()).toEqual({ status: 200, body: { status: 'ok', checks: { 'mcp:searcher': 'ok' } } });
    state.down = true;
    const down = await ready();
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('unavailable');
    expect(down.body.checks['mcp:searcher']).toMatch(/MCP server "search"/);
    state.down = false;
    expect((await ready()).status).toBe(200);
  });
});

describe('MCP problems stop the host from starting', () => {
  it('names the line of a tool the server does not offer, and stops the server it started', async () => {
    const dir = directory({});
    writeFileSync(join(dir, 'concord.config.json5'), orderDbConfig(dir));
    const agent = join(dir, 'shipper.md');
    writeFileSync(
      agent,
      '---\nname: shipper\nmodel: m\nmcpServers:\n  order-db:\n    - create_order\n    - ship_order\n---\n',
    );
    const error = await startHost(dir, {
      store: 'memory',
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as DefinitionError).problems).toEqual([
      {
        file: agent,
        line: 7,
        field: '/mcpServers/order-db/1',
        message:
          'MCP server "order-db" offers no tool "ship_order" (it offers: validate_inventory, create_order, cancel_all_orders)',
      },
    ]);
    expect(await gone(Number(readFileSync(join(dir, 'server.pid'), 'utf8')))).toBe(true);
  });

  it('reports every server that cannot start, at its definition in the config, with what it said', async () => {
    const config = `{
  mcpServers: {
    'order-db': { command: 'node', args: ['./missing-server.mjs'] },
    tickets: { command: 'no-such-mcp-server-command' },
  },
}
`;
    const dir = directory({
      'concord.config.json5': config,
      'a.md': '---\nname: a\nmodel: m\nmcpServers:\n  order-db: [create_order]\n---\n',
      'b.md': '---\nname: b\nmodel: m\nmcpServers:\n  tickets: [lookup]\n---\n',
    });
    const error = (await startHost(dir, {
      store: 'memory',
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    }).catch((e: unknown) => e)) as DefinitionError;
    expect(error).toBeInstanceOf(DefinitionError);
    const file = join(dir, 'concord.config.json5');
    expect(error.problems.map((p) => [p.file, p.line, p.field])).toEqual([
      [file, 3, '/mcpServers/order-db'],
      [file, 4, '/mcpServers/tickets'],
    ]);
    expect(error.problems[0]!.message).toMatch(
      /^MCP server "order-db" could not be started \(node \.\/missing-server\.mjs\): .*Cannot find module/s,
    );
    expect(error.problems[0]!.message).toContain('(agent "a" uses it)');
    expect(error.problems[1]!.message).toContain(
      'MCP server "tickets" could not be started (no-such-mcp-server-command): command not found: no-such-mcp-server-command',
    );
  });

  it('refuses, when loading, a server the host does not define and MCP servers on a code agent', async () => {
    const dir = directory({
      'concord.config.json5': JSON.stringify({ mcpServers: { 'order-db': { command: 'node' } } }),
      'a.md': '---\nname: a\nmodel: m\nmcpServers:\n  orders: [create_order]\n---\n',
      'b.md': '---\nname: b\nhandler: ./b.mjs\nmcpServers:\n  order-db: [create_order]\n---\n',
      'b.mjs': 'export default () => {};\n',
    });
    const error = (await loadHost(dir).catch((e: unknown) => e)) as DefinitionError;
    expect(error).toBeInstanceOf(DefinitionError);
    expect(error.problems).toEqual([
      {
        file: join(dir, 'a.md'),
        line: 5,
        field: '/mcpServers/orders',
        message: `MCP server "orders" is not defined in the host config's mcpServers (defined: order-db)`,
      },
      {
        file: join(dir, 'b.md'),
        line: 4,
        field: '/mcpServers',
        message:
          'only model agents use MCP servers (the model calls their tools); a code agent (`handler`) connects to what it needs itself',
      },
    ]);
  });

  it('makes `concord serve` exit with one file:line: field: line per problem', async () => {
    const dir = directory({});
    writeFileSync(join(dir, 'concord.config.json5'), orderDbConfig(dir));
    writeFileSync(
      join(dir, 'shipper.md'),
      '---\nname: shipper\nmodel: m\nmcpServers:\n  order-db: [ship_order]\n---\n',
    );
    const result = await new Promise<{ code: number; stderr: string }>((done) => {
      execFile(
        process.execPath,
        [join(ROOT, 'dist/cli/main.js'), 'serve', dir, '--port', '0', '--store', 'memory'],
        { env: { ...process.env, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }, timeout: 20_000 },
        (err, _stdout, stderr) => done({ code: err === null ? 0 : Number(err.code), stderr }),
      );
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${join(dir, 'shipper.md')}:5: /mcpServers/order-db/0: MCP server "order-db" offers no tool "ship_order"`,
    );
    // The server was started, found wanting, and stopped before the CLI exited.
    expect(existsSync(join(dir, 'server.pid'))).toBe(true);
    expect(await gone(Number(readFileSync(join(dir, 'server.pid'), 'utf8')))).toBe(true);
  });
});

/**
 * A stateless streamable HTTP MCP server with one `lookup` tool; records each request's
 * authorization. While `down` is set it answers every request 503, as a server that went away.
 */
async function httpMcpServer(
  seen: (string | undefined)[],
  state: { down?: boolean } = {},
): Promise<{ url: string }> {
  const http: HttpServer = createServer((req, res) => {
    if (state.down === true) {
      res.writeHead(503).end();
      return;
    }
    seen.push(req.headers.authorization);
    const server = new Server({ name: 'search', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'lookup',
          description: 'Looks a query up',
          inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, ({ params }) => ({
      content: [{ type: 'text', text: `results for ${String(params.arguments?.query)}` }],
    }));
    const transport = new StreamableHTTPServerTransport({}); // no session ids: stateless;
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((up) => http.listen(0, '127.0.0.1', up));
  cleanups.push(
    () =>
      new Promise<void>((down) => {
        http.closeAllConnections();
        http.close(() => down());
      }),
  );
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/` };
}
