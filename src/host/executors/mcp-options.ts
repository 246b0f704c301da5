/**
 * The options and the error of an MCP connection, apart from mcp-connection.ts: the host's public
 * declarations reach these, and must not reach the MCP SDK's types, an optional peer a strict
 * TypeScript app without MCP does not have (decision 0153).
 */

/** Options of an `McpConnection`. */
export interface McpConnectionOptions {
  /** Longest wait for a server to start and answer `initialize` (default 30 s). */
  connectTimeoutMs?: number | undefined;
  /** Receives each line a stdio server writes to stderr (the library itself never logs). */
  onLog?: ((server: string, line: string) => void) | undefined;
}

/** Why an MCP server could not be reached; the message names the server and its last words. */
export class McpConnectError extends Error {
  override readonly name = 'McpConnectError';
}
