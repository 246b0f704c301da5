/**
 * MCP servers in definitions (decision 0023): the host config's `mcpServers` (stdio
 * `{command, args, env, cwd}` or streamable HTTP `{url, headers}`), and each agent's `mcpServers`
 * entries (codespin-ai/shaman agent docs; decision 0012: server name -> tool names, or an inline
 * `{command, args, tools}`). What can be checked without starting a server is checked here — a
 * server the host does not define, a code agent with MCP servers, a URL that is not http(s) —
 * each at its field; that the tools exist is checked when the host starts the servers.
 */
import { dirname, resolve } from 'node:path';
import type { McpServerUse, McpToolUse } from '../../card/index.js';
import type { McpServerConfig } from '../host-config.js';
import { childPointer, type ProblemSink } from './definition-error.js';
import { resolveSecret, type SecretInput } from './secrets.js';

/** A host config `mcpServers` entry as written, after schema validation. */
export type RawMcpServer =
  | { command: string; args?: string[]; env?: Record<string, SecretInput>; cwd?: string }
  | { url: string; headers?: Record<string, SecretInput> };

/** An agent's `mcpServers` value as written: tool names, or an inline server. */
export type RawMcpUse = string[] | { command: string; args?: string[]; tools?: string[] };

/** Normalises the host config's `mcpServers` (written in `file`); problems go to `sink`. */
export function normalizeMcpServers(
  raw: Record<string, RawMcpServer>,
  file: string,
  sink: ProblemSink,
  env: NodeJS.ProcessEnv,
): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  for (const [name, server] of Object.entries(raw)) {
    const field = childPointer('/mcpServers', name);
    if (sink.hasUnder(field)) continue;
    const source = { file, field, ...lineOf(sink, field) };
    if ('url' in server) {
      let url: URL | undefined;
      try {
        url = new URL(server.url);
      } catch {
        sink.add(`${field}/url`, `not a URL: ${JSON.stringify(server.url)}`);
        continue;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        sink.add(`${field}/url`, `must be an http or https URL (got ${url.protocol})`);
        continue;
      }
      out[name] = {
        transport: 'http',
        url: url.href,
        headers: secrets(server.headers, `${field}/headers`),
        source,
      };
    } else {
      out[name] = {
        transport: 'stdio',
        command: server.command,
        args: server.args ?? [],
        env: secrets(server.env, `${field}/env`),
        cwd: resolve(dirname(file), server.cwd ?? '.'),
        source,
      };
    }
  }
  return out;

  function secrets(values: Record<string, SecretInput> | undefined, at: string): Record<string, string> {
    const resolved: Record<string, string> = {};
    for (const [key, value] of Object.entries(values ?? {})) {
      const secret = resolveSecret(value, childPointer(at, key), sink, env);
      if (secret !== undefined) resolved[key] = secret;
    }
    return resolved;
  }
}

/** What checking an agent's `mcpServers` needs to know about the host. */
export interface McpContext {
  /** The servers the host config defines (names). */
  defined: string[];
  /** Whether there is a host config at all (for the message when there is none). */
  hasConfig: boolean;
  /** Whether the agent is a model agent: only model agents use MCP servers. */
  modelAgent: boolean;
  /**
   * False when the definitions are read to describe agents (cards, contract audits), not to run
   * them: a server the host config does not define is then not a problem, since nothing connects
   * to it (decision 0150).
   */
  runnable: boolean;
}

/** Normalises an agent's `mcpServers` (at `field` in its file), reporting what cannot work. */
export function normalizeMcpUses(
  raw: Record<string, RawMcpUse>,
  field: string,
  sink: ProblemSink,
  context: McpContext,
): McpServerUse[] {
  if (!context.modelAgent && Object.keys(raw).length > 0) {
    sink.add(
      field,
      'only model agents use MCP servers (the model calls their tools); a code agent (`handler`) ' +
        'connects to what it needs itself',
    );
  }
  const uses: McpServerUse[] = [];
  for (const [server, value] of Object.entries(raw)) {
    const at = childPointer(field, server);
    const where = { field: at, ...lineOf(sink, at) };
    if (Array.isArray(value)) {
      if (context.runnable && !context.defined.includes(server))
        sink.add(at, undefinedServer(server, context));
      uses.push({ server, tools: toolUses(value, at), ...where });
    } else {
      const use: McpServerUse = {
        server,
        launch: { command: value.command, args: value.args ?? [] },
        ...where,
      };
      if (value.tools !== undefined) use.tools = toolUses(value.tools, `${at}/tools`);
      uses.push(use);
    }
  }
  return uses;

  function toolUses(names: string[], at: string): McpToolUse[] {
    const seen = new Set<string>();
    return names.flatMap((name, index) => {
      const toolField = `${at}/${index}`;
      if (seen.has(name)) {
        sink.add(toolField, `tool "${name}" is listed twice`);
        return [];
      }
      seen.add(name);
      return [{ name, field: toolField, ...lineOf(sink, toolField) }];
    });
  }
}

function undefinedServer(server: string, context: McpContext): string {
  if (!context.hasConfig) {
    return (
      `MCP server "${server}" is not defined: there is no host config; define it in ` +
      `concord.config.json5 under mcpServers, or give it inline as {command, args, tools}`
    );
  }
  const known =
    context.defined.length > 0 ? `defined: ${context.defined.join(', ')}` : 'the host config defines none';
  return `MCP server "${server}" is not defined in the host config's mcpServers (${known})`;
}

function lineOf(sink: ProblemSink, field: string): { line?: number } {
  const line = sink.lineOf(field);
  return line === undefined ? {} : { line };
}
