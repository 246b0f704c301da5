/**
 * One connection to an MCP server, with the official TypeScript SDK's client (decision 0023):
 * a child process over stdio, or the streamable HTTP transport. The host connects when it starts
 * (so a server that cannot start stops the host from starting), lists the tools, and calls them
 * for the model. A server that goes away later is started again at the next call.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../host-config.js';
import { loadPeer } from '../../peers/index.js';
import { McpConnectError, type McpConnectionOptions } from './mcp-options.js';

/**
 * The SDK's client side, imported on first use: loading it takes about a third of a second, which
 * hosts without MCP servers (and every other CLI command) should not pay.
 */
async function sdk() {
  const [client, stdio, http] = await loadPeer('mcp', () =>
    Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ]),
  );
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
  };
}

/** How Concord introduces itself to MCP servers (MCP `initialize` clientInfo). */
const CLIENT_INFO = { name: 'concord', version: '0.1.0' };

/** The last this many characters of a server's stderr are kept, to say why it stopped. */
const STDERR_TAIL = 2000;

/** See the file comment. */
export class McpConnection {
  private client: Promise<Client> | undefined;
  private live: Client | undefined;
  private stderrTail = '';
  private closed = false;

  constructor(
    /** The server's name, as the config writes it. */
    readonly name: string,
    private readonly server: McpServerConfig,
    private readonly options: McpConnectionOptions = {},
  ) {}

  /** Connects if not connected; rejects with an McpConnectError. */
  connect(): Promise<Client> {
    if (this.closed) return Promise.reject(new McpConnectError(`MCP server "${this.name}" is closed`));
    this.client ??= this.open().catch((error: unknown) => {
      this.client = undefined;
      throw error;
    });
    return this.client;
  }

  /** Every tool the server offers (all pages of `tools/list`). */
  async listTools(): Promise<Tool[]> {
    const client = await this.connect();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  /** Calls one tool; SDK errors (McpError, AbortError) are thrown as they are. */
  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const client = await this.connect();
    return (await client.callTool({ name, arguments: args }, undefined, { signal })) as CallToolResult;
  }

  /**
   * Checks the server answers (MCP `ping`), connecting again first if it went away, as a call
   * would: `/readyz` asks this (decision 0158).
   */
  async ping(timeoutMs?: number): Promise<void> {
    const client = await this.connect();
    await client.ping(timeoutMs === undefined ? undefined : { timeout: timeoutMs });
  }

  /** What the server last wrote to stderr (stdio only), for error messages. */
  get stderr(): string {
    return this.stderrTail.trim();
  }

  /** Closes the connection (and stops a stdio server); later calls fail. */
  async close(): Promise<void> {
    this.closed = true;
    const client = await this.client?.catch(() => undefined);
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private async open(): Promise<Client> {
    const loaded = await sdk();
    const transport = this.transport(loaded);
    const client = new loaded.Client(CLIENT_INFO);
    // Dropped when the transport closes (the process exited, the HTTP session ended): the next
    // call connects again instead of failing for the rest of the host's life.
    client.onclose = () => {
      if (this.live !== client) return;
      this.live = undefined;
      this.client = undefined;
    };
    try {
      await client.connect(transport, { timeout: this.options.connectTimeoutMs ?? 30_000 });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new McpConnectError(this.describeFailure(error), { cause: error });
    }
    this.live = client;
    return client;
  }

  private transport(loaded: Awaited<ReturnType<typeof sdk>>): Transport {
    const { server } = this;
    if (server.transport === 'http') {
      return new loaded.StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: server.headers },
      });
    }
    const transport = new loaded.StdioClientTransport({
      command: server.command,
      args: server.args,
      env: server.env,
      cwd: server.cwd,
      // Piped, not inherited: the host decides where a server's output goes (onLog).
      stderr: 'pipe',
    });
    let partial = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
      const lines = (partial + text).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') this.options.onLog?.(this.name, line);
    });
    return transport;
  }

  private describeFailure(error: unknown): string {
    const err = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
    const cause = err.cause;
    let why = typeof err.message === 'string' ? err.message : String(error);
    if (typeof err.code === 'string' && err.code === 'ENOENT' && this.server.transport === 'stdio') {
      why = `command not found: ${this.server.command}`;
    } else if (cause !== undefined && (typeof cause.code === 'string' || typeof cause.message === 'string')) {
      why = `${why} (${String(cause.code ?? cause.message)})`;
    }
    const what =
      this.server.transport === 'stdio'
        ? `could not be started (${[this.server.command, ...this.server.args].join(' ')})`
        : `could not be reached at ${withoutCredentials(this.server.url)}`;
    const said = this.stderr === '' ? '' : `; it wrote: ${this.stderr.slice(-500)}`;
    return `MCP server "${this.name}" ${what}: ${why}${said}`;
  }
}

/** A URL as it may appear in messages: user and password removed. */
function withoutCredentials(href: string): string {
  const url = new URL(href);
  url.username = '';
  url.password = '';
  return url.href;
}
