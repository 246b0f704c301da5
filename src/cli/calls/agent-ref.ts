/**
 * The agent a calling command talks to, as a2a-cli SPEC v0.2 §5.2 and §8.1 name it with
 * `-a/--agent-card <ref>`: a bare host or origin (its `/.well-known/agent-card.json` is read), a
 * full card URL, or a local card file (`file://…` or a plain path). Concord's earlier form, the
 * agent's http(s) URL as the first argument, stays accepted when `-a` is absent (decision 0169).
 */
import { existsSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../exit-codes.js';

/** A resolved reference: a URL to fetch the card from, or a card file on disk. */
export type AgentRef =
  { kind: 'url'; url: URL; typed: string } | { kind: 'file'; path: string; typed: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const HOST =
  /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)(:\d{1,5})?(\/\S*)?$/i;

function isLoopbackName(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/** Parses an `--agent-card` reference. */
export function parseAgentRef(value: string): AgentRef {
  const typed = value;
  if (value.trim() === '') throw new UsageError('--agent-card: the reference is empty');
  if (/^file:\/\//i.test(value)) {
    try {
      return { kind: 'file', path: fileURLToPath(value), typed };
    } catch {
      throw new UsageError(`--agent-card: ${JSON.stringify(value)} is not a file URL`);
    }
  }
  if (SCHEME.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new UsageError(`--agent-card: ${JSON.stringify(value)} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError(`--agent-card: ${value}: only http, https and file references are supported`);
    return { kind: 'url', url, typed };
  }
  // A path to something on disk, or one that reads as a path (it will not be found: exit 3).
  if (existsSync(value) && statSync(value).isFile()) return { kind: 'file', path: value, typed };
  if (/^(\.{1,2}[\\/]|[\\/]|~)/.test(value) || /\.json$/i.test(value))
    return { kind: 'file', path: value, typed };
  if (HOST.test(value)) {
    // A bare host: https, except a loopback one, which is a local agent on plain http.
    const scheme = isLoopbackName(new URL(`http://${value}`).hostname) ? 'http' : 'https';
    return { kind: 'url', url: new URL(`${scheme}://${value}`), typed };
  }
  throw new UsageError(`--agent-card: ${JSON.stringify(value)} is neither a host, a URL nor a card file`);
}

/**
 * The agent of a command and its other positional arguments: `-a` when given, else Concord's
 * earlier form (the agent's http(s) URL first).
 */
export function agentOf(
  flags: { 'agent-card'?: string | undefined },
  positionals: readonly string[],
  usage: string,
): { ref: AgentRef; rest: string[] } {
  const given = flags['agent-card'];
  if (given !== undefined) return { ref: parseAgentRef(given), rest: [...positionals] };
  const first = positionals[0];
  if (first === undefined)
    throw new UsageError(`missing the agent URL: give -a/--agent-card <ref>\n\n${usage}`);
  if (!/^https?:\/\//i.test(first))
    throw new UsageError(
      `${JSON.stringify(first)} is not a URL; name the agent with -a/--agent-card <host|url|card.json>`,
    );
  return { ref: parseAgentRef(first), rest: positionals.slice(1) };
}

/** The agent and the one task id of a command on a task (`task get|cancel|subscribe`). */
export function agentAndTaskOf(
  flags: { 'agent-card'?: string | undefined },
  positionals: readonly string[],
  usage: string,
): { ref: AgentRef; id: string } {
  const { ref, rest } = agentOf(flags, positionals, usage);
  const [id, extra] = rest;
  if (id === undefined) throw new UsageError(`missing the task id\n\n${usage}`);
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  return { ref, id };
}

/** The `-a` argument that names this agent again, quoted for a shell when needed. */
export function refArgument(ref: AgentRef): string {
  return /^[\w@%+=:,./-]+$/.test(ref.typed) ? ref.typed : `'${ref.typed.replace(/'/g, `'\\''`)}'`;
}
