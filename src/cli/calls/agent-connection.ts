/**
 * Opens the agent a calling command talks to (decision 0169): resolves its card from the
 * `-a/--agent-card` reference (a URL, through the client's resolver and its guard, or a card file
 * on disk), picks the interface, and tells failures apart as a2a-cli SPEC §9.6 asks: anything that
 * goes wrong while the card is resolved is a card failure (no card: exit 3), and a card that
 * requires credentials none were given for stops before any operation is sent
 * (A2ACLI_ERR_CREDENTIALS_MISSING, exit 4), with a hint naming the flags its schemes take.
 */
import { readFileSync } from 'node:fs';
import { A2AClient, type NetworkPolicy } from '../../client/index.js';
import { selectCredentials } from '../../client/internal.js';
import {
  A2AError,
  v0_3JsonRpcCodec,
  v1_0Codec,
  type AgentCard,
  type SecurityScheme,
} from '../../protocol/internal.js';
import type { CliIo } from '../cli-io.js';
import { A2ACLI_ERR, CardResolutionError, CliFailure, EXIT, UsageError } from '../exit-codes.js';
import type { AgentRef } from './agent-ref.js';
import {
  clientOptionsOf,
  connectClient,
  credentialsOf,
  networkPolicyFor,
  preferenceOf,
  warnInsecure,
  withSpecCredentials,
  type CallFlags,
} from './call-flags.js';
import type { CallContext } from './call-runner.js';

/** A card read from a file: the decoded card and the JSON as written. */
export interface CardFile {
  card: AgentCard;
  json: Record<string, unknown>;
}

/**
 * Reads and decodes a card file; a missing or unreadable file is no card at the reference
 * (exit 3), one that is not a card an invalid card (exit 1).
 */
export function readCardFile(path: string): CardFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliFailure(
      A2ACLI_ERR.CARD_NOT_FOUND,
      `no agent card at ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      EXIT.UNREACHABLE,
      'give -a a host, an origin, a card URL or an existing card file',
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliFailure(
      A2ACLI_ERR.CARD_INVALID,
      `${path} is not JSON: ${(error as Error).message}`,
      EXIT.FAILURE,
    );
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new CliFailure(A2ACLI_ERR.CARD_INVALID, `${path} is not a JSON object`, EXIT.FAILURE);
  const record = json as Record<string, unknown>;
  // The same dialect test as the client's resolver: 0.3 cards have `url` or `protocolVersion`.
  const legacy = 'protocolVersion' in record || 'url' in record || !('supportedInterfaces' in record);
  try {
    const codec = legacy ? v0_3JsonRpcCodec : v1_0Codec;
    return { card: codec.decodeAgentCard(record, ''), json: record };
  } catch (error) {
    if (!(error instanceof A2AError)) throw error;
    throw new CliFailure(
      A2ACLI_ERR.CARD_INVALID,
      `${path} is not a valid A2A ${legacy ? '0.3' : '1.0'} card: ${error.message}`,
      EXIT.FAILURE,
    );
  }
}

/**
 * The network policy for an agent named by a card file: the file is the user's own input, as a
 * typed URL is, so loopback interfaces in it are reachable; other private ones need
 * --allow-private.
 */
export function filePolicy(allowPrivate: boolean): NetworkPolicy {
  return allowPrivate ? { allowPrivateNetworks: true } : { allowedHosts: ['localhost', '127.0.0.1', '::1'] };
}

/** Resolves the card the reference names and connects; failures carry how the CLI reports them. */
export async function openAgent(
  ref: AgentRef,
  given: CallFlags,
  context: CallContext,
  io: CliIo,
): Promise<A2AClient> {
  const flags = withSpecCredentials(given);
  warnInsecure(flags, io);
  const credentials = credentialsOf(flags);
  // While the card is resolved (an AI Catalog fetch presents every credential given).
  context.facts.credentials = credentials.length > 0;
  let client: A2AClient;
  if (ref.kind === 'file') {
    if (flags.agent !== undefined)
      throw new UsageError('--agent picks an agent of an origin; a card file names one already');
    const { card } = readCardFile(ref.path);
    try {
      client = new A2AClient({
        ...clientOptionsOf(flags, filePolicy(flags['allow-private'] === true), io),
        card,
      });
    } catch (error) {
      throw new CardResolutionError(error);
    }
  } else {
    try {
      client = await connectClient(ref.url, flags, context.signal, io);
    } catch (error) {
      if (error instanceof UsageError || context.signal.aborted) throw error;
      throw new CardResolutionError(error);
    }
  }
  // Only what the client will present to this agent counts: a stored login for another agent's
  // authorization server, or a bearer token where the card asks for an API key, is none.
  const presented = selectCredentials(client.card, credentials);
  context.facts.credentials = presented.length > 0;
  const needed = requiredSchemes(client.card, ref.kind === 'url' ? ref.url.href : undefined);
  if (needed !== undefined && presented.length === 0) {
    client.close();
    const given = credentials.map((c) => c.kind).join(', ');
    throw new CliFailure(
      A2ACLI_ERR.CREDENTIALS_MISSING,
      `the card of "${client.card.name}" requires credentials (${needed.names.join(' or ')}) and ${
        given === '' ? 'none were given' : `none of those given fits them (${given})`
      }`,
      EXIT.AUTH,
      needed.hint,
    );
  }
  // A2A 1.0 §4.6: an extension the card marks required is declared (A2A-Extensions) by a client
  // that implements it; one the caller did not name is refused here, before anything is sent.
  const missing = (client.card.capabilities.extensions ?? []).filter(
    (extension) => extension.required === true && !(flags.extension ?? []).includes(extension.uri),
  );
  if (missing.length > 0) {
    client.close();
    throw new CliFailure(
      'ExtensionSupportRequiredError',
      `the card of "${client.card.name}" requires the extension(s) ${missing.map((e) => e.uri).join(', ')}`,
      EXIT.FAILURE,
      `if you implement them, pass ${missing.map((e) => `--extension ${e.uri}`).join(' ')}`,
    );
  }
  if (flags.debug === true) debugInterface(client, flags, io);
  return client;
}

/** The `--debug` line of the interface negotiated from the card (SPEC §5.2). */
function debugInterface(client: A2AClient, flags: CallFlags, io: CliIo): void {
  const t = client.transport;
  const prefer = preferenceOf(flags);
  const order = prefer.bindings === undefined ? "the card's order" : prefer.bindings.join(', ');
  io.err(
    `debug: interface ${t.protocolBinding} ${t.protocolVersion} ${t.url}, chosen from the card's ${client.card.supportedInterfaces.length} (bindings: ${order}; A2A ${prefer.versions?.join(', ') ?? '1.0'})`,
  );
}

/** The network policy for a reference (what `card get` fetches through). */
export function policyOf(ref: AgentRef, allowPrivate: boolean): NetworkPolicy {
  return ref.kind === 'url' ? networkPolicyFor(ref.url, allowPrivate) : filePolicy(allowPrivate);
}

/**
 * The schemes a card requires of every caller, with the flags that satisfy them; undefined when
 * the card lets a caller in without credentials (no requirement, or an empty alternative). `agent`,
 * the agent's URL, goes into the hint of an OAuth 2.0 scheme.
 */
export function requiredSchemes(
  card: AgentCard,
  agent?: string,
): { names: string[]; hint: string } | undefined {
  const requirements = card.securityRequirements ?? [];
  if (requirements.length === 0) return undefined;
  if (requirements.some((r) => Object.keys(r.schemes).length === 0)) return undefined;
  const names = [...new Set(requirements.flatMap((r) => Object.keys(r.schemes)))];
  const flags = new Set<string>();
  for (const name of names) {
    const scheme = card.securitySchemes?.[name];
    if (scheme !== undefined) flags.add(flagFor(scheme, agent));
  }
  const options = flags.size === 0 ? ['--bearer <token>', '--api-key <key>'] : [...flags];
  return { names, hint: `pass ${options.join(' or ')}` };
}

/** How a caller satisfies one scheme from the command line (`agent`: its URL, for the login command). */
function flagFor(scheme: SecurityScheme, agent = '<agent URL>'): string {
  if ('apiKeySecurityScheme' in scheme)
    return `--api-key <key> (sent in the ${scheme.apiKeySecurityScheme.location} ${JSON.stringify(scheme.apiKeySecurityScheme.name)}; or set A2ACLI_API_KEY)`;
  if ('httpAuthSecurityScheme' in scheme)
    return `--bearer <token> (HTTP ${scheme.httpAuthSecurityScheme.scheme}; or set A2ACLI_BEARER)`;
  if ('oauth2SecurityScheme' in scheme || 'openIdConnectSecurityScheme' in scheme)
    // A person logs in once (decision 0168); the calls then present the stored login.
    return `--bearer <token> (an OAuth 2.0 / OpenID Connect access token; or set A2ACLI_BEARER), or log in once: concord auth login ${agent} --client-id <id>`;
  return '--bearer <token> or --api-key <key>';
}
