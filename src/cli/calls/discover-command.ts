/**
 * `concord discover <origin>`: the agents an origin serves, from its AI Catalog (decision 0167;
 * A2A pull request #2240). With credentials (`--token`, `--api-key`) the catalog may list more:
 * a Concord host adds the unexposed agents the caller's internal scope lets it reach. Each agent
 * can then be called through the same origin with `--agent <id>`.
 */
import { discoverAgents, type AgentCatalog } from '../../client/index.js';
import type { CliIo } from '../cli-io.js';
import { CardResolutionError, EXIT } from '../exit-codes.js';
import {
  agentUrl,
  CALL_OPTIONS,
  CALL_OPTIONS_USAGE,
  checkCallFlags,
  credentialsOf,
  networkPolicyFor,
  outputOf,
  requestTimeoutOf,
  startTimeout,
  withSpecCredentials,
  parseCall,
  printHelp,
} from './call-flags.js';
import { runCall } from './call-runner.js';
import { redacting } from '../redaction.js';

/** Usage text of `discover`. */
export const DISCOVER_USAGE = `Usage: concord discover <origin | catalog-url> [options]

Lists the agents an origin serves, from its AI Catalog (/.well-known/ai-catalog.json), or from
the catalog at a URL ending in .json. Credentials may show more agents (those they allow).
Call one through the origin with: concord send <origin> --agent <id> "..."

${CALL_OPTIONS_USAGE}`;

/** Runs `discover`; returns the exit code. */
export function discoverCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'discover', args, async (context) => {
    const { signal, facts } = context;
    const { values, positionals } = parseCall({ args, allowPositionals: true, options: CALL_OPTIONS }, io);
    if (values.help === true) return printHelp(io, DISCOVER_USAGE, values);
    const url = agentUrl(positionals[0], DISCOVER_USAGE);
    checkCallFlags(values);
    startTimeout(values, context);
    const timeoutMs = requestTimeoutOf(values);
    const credentials = credentialsOf(withSpecCredentials(values)).map(redacting);
    facts.credentials = credentials.length > 0;
    const catalog = await discoverAgents(url, {
      ...networkPolicyFor(url, values['allow-private'] === true),
      credentials,
      signal,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    }).catch((error: unknown) => {
      // No catalog at the origin is no card at the reference (exit 3, decision 0169).
      throw new CardResolutionError(error);
    });
    for (const skipped of catalog.skipped) {
      io.err(`warning: ${catalog.url} ${skipped.pointer}: entry left out: ${skipped.reason}`);
    }
    io.write(outputOf(values) === 'json' ? catalogJson(catalog) : catalogText(catalog));
    return EXIT.OK;
  });
}

/** One JSON object per agent (NDJSON, as every `--json` output of the calling commands). */
function catalogJson(catalog: AgentCatalog): string {
  return catalog.agents
    .map((agent) =>
      JSON.stringify({
        id: agent.id,
        identifier: agent.identifier,
        name: agent.name,
        ...(agent.description === undefined ? {} : { description: agent.description }),
        ...(agent.version === undefined ? {} : { version: agent.version }),
        tags: agent.tags,
        ...(agent.cardUrl === undefined ? { card: agent.card } : { cardUrl: agent.cardUrl }),
      }),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/** A block per agent, `Label: value` lines, for people. */
function catalogText(catalog: AgentCatalog): string {
  const lines = [
    `Catalog: ${catalog.url}${catalog.host === undefined ? '' : ` (${catalog.host.displayName})`}`,
  ];
  lines.push(`Agents: ${catalog.agents.length}`);
  for (const agent of catalog.agents) {
    lines.push('');
    lines.push(`Id: ${agent.id}`);
    lines.push(`Name: ${agent.name}`);
    if (agent.description !== undefined) lines.push(`Description: ${agent.description}`);
    if (agent.version !== undefined) lines.push(`Version: ${agent.version}`);
    if (agent.tags.length > 0) lines.push(`Tags: ${agent.tags.join(', ')}`);
    lines.push(`Card: ${agent.cardUrl ?? '(inline in the catalog)'}`);
    lines.push(`Identifier: ${agent.identifier}`);
  }
  return `${lines.join('\n')}\n`;
}
