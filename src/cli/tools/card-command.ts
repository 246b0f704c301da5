/**
 * `concord card <dir|file|url>`: prints the card an agent serves (generated from its definitions,
 * or fetched) and lints it against the spec, including whether the URLs its interfaces declare
 * answer (interface-probe.ts); `--extended` asks the agent for its extended card with the
 * calling commands' credentials (A2A 1.0 §3.1.11, decision 0142).
 * `concord card verify <url|file>`: checks the card's JWS signatures (A2A 1.0 §8.4) against the
 * trust anchors given (card-verify-command.ts, decision 0166).
 * Cards, key sets and the interface probes go through the client's network guard (decisions
 * 0038, 0039): a loopback URL you typed is allowed, other private targets need --allow-private.
 */
import { parseArgs } from 'node:util';
import { lintAgentCard } from '../../card/index.js';
import { A2ALocalError, fetchAgentCardJson, type NetworkPolicy } from '../../client/internal.js';
import { loadHost, publicAddressOf, servedAgentCardJson, type HostConfig } from '../../host/internal.js';
import { v0_3JsonRpcCodec, v1_0Codec, type ProtocolVersion } from '../../protocol/internal.js';
import { connectClient, networkPolicyFor, type CallFlags } from '../calls/call-flags.js';
import { HOST_EXTENSIONS } from '../serve/host-extensions.js';
import { describeFailure, UsageError } from '../exit-codes.js';
import { cardVerifyCommand } from './card-verify-command.js';
import { unreachableInterfaces } from './interface-probe.js';

/** Usage text of `card`. */
export const CARD_USAGE = `Usage: concord card <agents-dir|config.json5|agent.md|card-url> [options]
       concord card verify <card-url|card.json> [--key ...] [--jwks ...] [--root ...]
                           [--trust-card-origin]   (concord card verify --help)

Options:
  --card-version <v>  1.0 (default) or 0.3: which shape to print and lint
  --agent <id>        which agent of the definitions (default: every one)
  --base-url <url>    base URL the generated cards advertise (default: the public URL serve
                      would list, from $CONCORD_PUBLIC_URL or the config's publicUrl, else
                      http://localhost:4000/)
  --allow-private     allow private and loopback targets beyond a loopback URL you typed
                      (a fetched card is found at /.well-known/agent-card.json, else agent.json)

Extended card (a card URL only; GetExtendedAgentCard, sent in --card-version):
  --extended          print and lint the agent's extended card instead of the public one
  --token <bearer>    bearer token for --extended (default: $CONCORD_TOKEN)
  --api-key <key>     API key for --extended, placed as the card's apiKey scheme says
                      (default: $CONCORD_API_KEY)
  --binding <b>       jsonrpc, rest or grpc: the interface to ask on (default: the agent's
                      preference)

gRPC interfaces (host:port) are probed with an HTTP/2 handshake, HTTP ones with a GET.`;

type Out = (line: string) => void;

/** Runs `card`; returns the exit code (1 when the card has errors or does not verify). */
export async function cardCommand(args: string[], out: Out, err: Out): Promise<number> {
  if (args[0] === 'verify') return cardVerifyCommand(args.slice(1), out, err);
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'card-version': { type: 'string', default: '1.0' },
      agent: { type: 'string' },
      'base-url': { type: 'string' },
      'allow-private': { type: 'boolean', default: false },
      extended: { type: 'boolean', default: false },
      token: { type: 'string' },
      'api-key': { type: 'string' },
      binding: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help === true) {
    out(CARD_USAGE);
    return 0;
  }
  const allowPrivate = values['allow-private'] === true;
  if (positionals[0] === 'verify')
    throw new UsageError('put verify first: concord card verify <card> [options]');
  const target = positionals[0];
  if (target === undefined) throw new UsageError(`missing the agent or card URL\n\n${CARD_USAGE}`);
  const version = values['card-version'];
  if (version !== '1.0' && version !== '0.3')
    throw new UsageError(`--card-version: expected 1.0 or 0.3, got ${version}`);
  const fetched = isUrl(target);
  const extended = values.extended === true;
  if (!extended) {
    // Credentials would go nowhere: the public card is fetched without them (A2A 1.0 §8.2); the
    // extended one is the authenticated call (A2A 1.0 §3.1.11).
    const stray = (['token', 'api-key', 'binding'] as const).find((name) => values[name] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} is used with --extended only`);
  } else if (!fetched) {
    throw new UsageError(`--extended: expected a card URL, got ${JSON.stringify(target)}`);
  }
  const policy = fetched ? networkPolicyFor(new URL(target), allowPrivate) : {};
  let cards: { label: string; json: Record<string, unknown> }[];
  if (extended) {
    const flags: CallFlags = { ...values, 'a2a-version': version };
    const answer = await extendedCard(new URL(target), version, flags);
    if ('failure' in answer) {
      err(`concord card: ${answer.failure.line}`);
      return answer.failure.code;
    }
    cards = [{ label: `${target} (extended)`, json: answer.json }];
  } else {
    cards = fetched
      ? [{ label: target, json: await fetchCard(target, version, policy) }]
      : await generated(target, version, values['base-url'], values.agent);
  }
  let errors = 0;
  for (const { label, json } of cards) {
    out(JSON.stringify(json, null, 2));
    // A generated card advertises where it will be served, which need not be up yet.
    const problems = [
      ...lintAgentCard(json, version),
      ...(fetched ? await unreachableInterfaces(json, version, policy) : []),
    ];
    for (const problem of problems)
      err(`${label}: ${problem.severity}: ${problem.path || '/'}: ${problem.message}`);
    errors += problems.filter((p) => p.severity === 'error').length;
    if (problems.length === 0) err(`${label}: card is valid A2A ${version}`);
  }
  return errors > 0 ? 1 : 0;
}

function isUrl(target: string): boolean {
  return /^https?:\/\//i.test(target);
}

/**
 * The card of each agent the definitions describe, as `concord serve` would serve it: the same
 * steps (extensions, push, decoration, signing; decision 0149), at the public URL serve would use.
 */
async function generated(
  target: string,
  version: ProtocolVersion,
  baseUrl: string | undefined,
  only: string | undefined,
): Promise<{ label: string; json: Record<string, unknown> }[]> {
  // A card is generated, not served: no model, handler or MCP server is needed for it (0150).
  const config: HostConfig = await loadHost(target, { purpose: 'describe' });
  const chosen = baseUrl ?? publicAddressOf({}, process.env, config).publicUrl ?? 'http://localhost:4000/';
  const base = chosen.endsWith('/') ? chosen : `${chosen}/`;
  const agents = config.agents.filter((a) => only === undefined || a.id === only);
  if (agents.length === 0)
    throw new Error(only === undefined ? `${target}: no agents` : `no agent "${only}"`);
  const out: { label: string; json: Record<string, unknown> }[] = [];
  for (const definition of agents) {
    const json = await servedAgentCardJson(config, definition, {
      baseUrl: `${base}agents/${encodeURIComponent(definition.id)}/`,
      version,
      extensions: HOST_EXTENSIONS,
    });
    out.push({ label: `${definition.source.file} (${definition.id})`, json });
  }
  return out;
}

/** The card behind `url`, through the client's resolver: SSRF guard, legacy path fallback. */
async function fetchCard(
  url: string,
  version: ProtocolVersion,
  policy: NetworkPolicy,
): Promise<Record<string, unknown>> {
  try {
    // The JSON as served, not decoded: a card the client would refuse is what the lint explains.
    const fetched = await fetchAgentCardJson(url, { ...policy, protocolVersion: version, timeoutMs: 10_000 });
    return fetched.json;
  } catch (error) {
    if (error instanceof A2ALocalError) throw new Error(describeFailure(error).line, { cause: error });
    throw error;
  }
}

/**
 * The extended card, asked for on the interface the flags pick with their credentials, written in
 * `version`'s card shape; or why the call failed (an agent's error, exit 3; no answer, exit 4).
 */
async function extendedCard(
  url: URL,
  version: ProtocolVersion,
  flags: CallFlags,
): Promise<{ json: Record<string, unknown> } | { failure: ReturnType<typeof describeFailure> }> {
  try {
    const client = await connectClient(url, flags, AbortSignal.timeout(30_000));
    try {
      const card = await client.getExtendedAgentCard();
      const codec = version === '1.0' ? v1_0Codec : v0_3JsonRpcCodec;
      return { json: codec.encodeAgentCard(card) as Record<string, unknown> };
    } finally {
      client.close();
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    return { failure: describeFailure(error) };
  }
}
