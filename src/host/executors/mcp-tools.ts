/**
 * The MCP tools of a model agent (decision 0023): its `mcpServers` entries resolved against the
 * host config, each server connected when the host starts, the tools the agent may use checked
 * against what the server offers, and offered to the model as OpenAI function tools next to
 * `send_to_agent`. A tool call is run on its server and the result handed back to the model as
 * text. Anything wrong at start — a server that does not start, a tool it does not offer — is a
 * DefinitionError naming the file, line and field that asked for it.
 */
import { dirname } from 'node:path';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AgentDefinition, McpServerUse } from '../../card/index.js';
import { DefinitionError, type DefinitionProblem } from '../definitions/definition-error.js';
import type { HostConfig, McpServerConfig } from '../host-config.js';
import { AGENT_TOOL_NAME } from './agent-tool.js';
import { agentToolError, bounded } from './agent-tool-result.js';
import type { ChatTool } from './chat-completion-stream.js';
import type { ChatToolCall } from './chat-messages.js';
import { McpConnection } from './mcp-connection.js';
import type { McpConnectionOptions } from './mcp-options.js';

/** An agent's `mcpServers` entry with the server it names. */
export interface ResolvedMcpServer {
  use: McpServerUse;
  /** Undefined when the host config does not define the server (the loader reports that). */
  server: McpServerConfig | undefined;
}

/** The MCP tools offered to one model agent. */
export interface McpToolSet {
  /** The function tools, as sent to the model. */
  readonly specs: ChatTool[];
  /** Whether `name` (as the model calls it) is one of these tools. */
  has(name: string): boolean;
  /** The server a tool is on, for progress messages. */
  serverOf(name: string): string | undefined;
  /** Runs one call; returns the text the model reads (the result, or `{"error": ...}`). */
  call(call: ChatToolCall, signal: AbortSignal): Promise<string>;
  /** Closes every connection (stops stdio servers). */
  /** Resolves when every server answers a ping; rejects naming those that do not (readiness). */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Options of `connectMcpTools`. */
export interface McpToolOptions extends McpConnectionOptions {
  /** Longest tool result handed to the model, in characters (default 16000). */
  maxResultChars?: number | undefined;
}

/** The servers an agent's `mcpServers` entries name; inline ones run in the definition's directory. */
export function mcpServersOf(definition: AgentDefinition, config: HostConfig): ResolvedMcpServer[] {
  return (definition.mcpServers ?? []).map((use) => {
    if (use.launch === undefined) return { use, server: config.mcpServers[use.server] };
    const source = { file: definition.source.file, field: use.field, ...lineOf(use.line) };
    const { command, args } = use.launch;
    const cwd = dirname(definition.source.file);
    return { use, server: { transport: 'stdio', command, args, env: {}, cwd, source } };
  });
}

interface OfferedTool {
  connection: McpConnection;
  /** The tool's name on its server. */
  tool: string;
}

/**
 * Connects the agent's MCP servers and checks its tools; undefined when it has none. Throws a
 * DefinitionError listing every problem, after closing whatever it had opened.
 */
export async function connectMcpTools(
  definition: AgentDefinition,
  config: HostConfig,
  options: McpToolOptions = {},
): Promise<McpToolSet | undefined> {
  const resolved = mcpServersOf(definition, config);
  if (resolved.length === 0) return undefined;
  const file = definition.source.file;
  const problems: DefinitionProblem[] = [];
  const connections: McpConnection[] = [];
  const listed = await Promise.all(
    resolved.map(async ({ use, server }) => {
      if (server === undefined) {
        problems.push({
          file,
          field: use.field,
          ...lineOf(use.line),
          message: `MCP server "${use.server}" is not defined`,
        });
        return undefined;
      }
      const connection = new McpConnection(use.server, server, options);
      connections.push(connection);
      try {
        return { use, connection, tools: await connection.listTools() };
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        problems.push({
          ...server.source,
          message: `${why} (agent "${definition.id}" uses it)`,
        });
        return undefined;
      }
    }),
  );
  const offered = new Map<string, OfferedTool>();
  const specs: ChatTool[] = [];
  for (const entry of listed) {
    if (entry === undefined) continue;
    const { use, connection, tools } = entry;
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const wanted = use.tools ?? tools.map((tool) => ({ name: tool.name, field: use.field, line: use.line }));
    for (const want of wanted) {
      const where = { file, field: want.field, ...lineOf(want.line) };
      const tool = byName.get(want.name);
      if (tool === undefined) {
        const has = tools.map((t) => t.name).join(', ') || 'none';
        problems.push({
          ...where,
          message: `MCP server "${use.server}" offers no tool "${want.name}" (it offers: ${has})`,
        });
        continue;
      }
      const name = modelName(tool.name);
      const clash = name === AGENT_TOOL_NAME ? 'the agent tool' : offered.get(name)?.connection.name;
      if (clash !== undefined) {
        problems.push({
          ...where,
          message: `tool "${tool.name}" of MCP server "${use.server}" would be offered to the model as "${name}", which ${clash === 'the agent tool' ? 'is the agent tool' : `MCP server "${clash}" already offers`}; allow only one of them`,
        });
        continue;
      }
      offered.set(name, { connection, tool: tool.name });
      specs.push(toolSpec(name, tool));
    }
  }
  if (problems.length > 0) {
    await Promise.all(connections.map((c) => c.close()));
    throw new DefinitionError(problems);
  }
  const maxChars = options.maxResultChars ?? 16_000;
  return {
    specs,
    has: (name) => offered.has(name),
    serverOf: (name) => offered.get(name)?.connection.name,
    async call(call, signal) {
      const target = offered.get(call.function.name);
      if (target === undefined) return agentToolError(`Unknown tool "${call.function.name}"`);
      const args = argumentsOf(call);
      if (typeof args === 'string') return agentToolError(args);
      try {
        return bounded(resultText(await target.connection.callTool(target.tool, args, signal)), maxChars);
      } catch (error) {
        if (signal.aborted) throw error;
        // The server's refusal (unknown tool, invalid arguments) in its words; anything else says where.
        const why = error instanceof Error ? error.message : String(error);
        // By name, not instanceof: the SDK is loaded lazily (mcp-connection.ts).
        const refused = error instanceof Error && error.name === 'McpError';
        const said = refused ? why : `MCP server "${target.connection.name}" failed: ${why}`;
        return agentToolError(said);
      }
    },
    async ping(timeoutMs) {
      const failed: string[] = [];
      await Promise.all(
        connections.map((c) =>
          c.ping(timeoutMs).catch((error: unknown) => {
            failed.push(`MCP server "${c.name}": ${error instanceof Error ? error.message : String(error)}`);
          }),
        ),
      );
      if (failed.length > 0) throw new Error(failed.sort().join('; '));
    },
    async close() {
      await Promise.all(connections.map((c) => c.close()));
    },
  };
}

/** OpenAI function names are `^[a-zA-Z0-9_-]{1,64}$`; MCP tool names may also hold `.` and `/`. */
function modelName(tool: string): string {
  return tool.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || '_';
}

function toolSpec(name: string, tool: Tool): ChatTool {
  const description = tool.description ?? tool.title ?? tool.annotations?.title ?? '';
  return { type: 'function', function: { name, description, parameters: tool.inputSchema } };
}

function argumentsOf(call: ChatToolCall): Record<string, unknown> | string {
  const raw = call.function.arguments.trim();
  let args: unknown;
  try {
    args = raw === '' ? {} : JSON.parse(raw);
  } catch (error) {
    return `The arguments are not valid JSON (${(error as Error).message}): ${raw.slice(0, 200)}`;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return 'The arguments must be a JSON object';
  }
  return args as Record<string, unknown>;
}

/**
 * A tool result as the model reads it: the text parts (MCP asks servers to mirror structured
 * results as text too), else the structured result as JSON; other content is named, not inlined.
 * A result flagged `isError` comes back as `{"error": ...}`, like every refused tool call.
 */
function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const content of result.content ?? []) {
    if (content.type === 'text') parts.push(content.text);
    else if (content.type === 'resource' && 'text' in content.resource)
      parts.push(String(content.resource.text));
    else if (content.type === 'resource') parts.push(`[resource ${content.resource.uri}]`);
    else if (content.type === 'resource_link') parts.push(`[resource ${content.uri}]`);
    else parts.push(`[${content.type} (${content.mimeType}), not shown]`);
  }
  let text = parts.join('\n\n');
  if (text === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  return result.isError === true ? agentToolError(text || 'the tool reported an error') : text;
}

function lineOf(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}
