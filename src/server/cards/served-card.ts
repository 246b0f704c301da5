/**
 * A card as a server serves it, in two steps every place that shows a card shares (the card
 * endpoint, the extended card on each binding, `concord card <dir>`; decision 0149):
 *
 * - `servedCard`: the card input completed from what the server runs: its interfaces at a base
 *   URL, its push capability, the extensions it mounts (A2A 1.0 §4.6.1);
 * - `servedCardJson`: that card in one version's wire JSON, decorated, then signed (A2A 1.0 §8.4:
 *   the signature covers the JSON the client receives).
 */
import type { AgentCard, AgentCardSignature, AgentInterface, ProtocolVersion } from '../../protocol/index.js';
import { v0_3JsonRpcCodec } from '../../protocol/v0_3/index.js';
import { v1_0Codec } from '../../protocol/v1_0/index.js';
import { defaultCardInterfaces } from '../../card/internal.js';
import { withDeclarations, type ServerExtension } from '../server-extension.js';

/** A card as given by the user: interfaces may be left for the server to fill in. */
export type AgentCardInput = Omit<AgentCard, 'supportedInterfaces'> & {
  supportedInterfaces?: AgentInterface[];
};

/** Signs a card's wire JSON (without `signatures`) for one protocol version. */
export type CardSigner = (
  cardJson: Record<string, unknown>,
  version: ProtocolVersion,
) => Promise<AgentCardSignature[]>;

/** Adds members to a card's wire JSON for one version (A2AServer `decorateCard`); returns the JSON. */
export type CardDecorator = (
  cardJson: Record<string, unknown>,
  version: ProtocolVersion,
) => Record<string, unknown>;

/** What the server runs, which the card states. */
export interface ServedFacts {
  /** The base URL the card's HTTP interfaces point at (ending in `/`). */
  baseUrl: string | undefined;
  extensions?: readonly ServerExtension[];
  /** Where a gRPC listener serves the agent (`host:port` or URL), if one is bound. */
  grpcTarget?: string | undefined;
  /** Whether push notifications are delivered. */
  push?: boolean;
  /** The version of a request without `A2A-Version` (A2AServer `defaultVersion`). */
  headerless?: ProtocolVersion | undefined;
}

/** The interfaces a Concord server offers at `baseUrl` (and `grpcTarget`), preferred first (A2A 1.0 §8.3.1). */
export const defaultInterfaces: (baseUrl: string, grpcTarget?: string) => AgentInterface[] =
  defaultCardInterfaces;

/** `input` completed with what the server runs (see the file comment). */
export function servedCard(input: AgentCardInput, facts: ServedFacts): AgentCard {
  const headerless = facts.headerless ?? '0.3';
  // A card claims only what is served (A2A 1.0 §8.3.1): gRPC only once a listener is bound.
  // A 0.3 client sends no A2A-Version (A2A 1.0 §3.6): where such a request is 1.0
  // (`defaultVersion`, AAP), no 0.3 client can use the HTTP 0.3 interfaces, so none is claimed
  // (decision 0139). gRPC names its version by service, not by header.
  const interfaces =
    input.supportedInterfaces !== undefined && input.supportedInterfaces.length > 0
      ? input.supportedInterfaces
      : defaultInterfaces(facts.baseUrl ?? 'http://localhost/', facts.grpcTarget).filter(
          (i) => headerless === '0.3' || i.protocolVersion !== '0.3' || i.protocolBinding === 'GRPC',
        );
  // Capability flags must match behaviour (A2A 1.0 §3.3.4): push exactly when it is configured.
  const capabilities = Object.assign({}, input.capabilities, { pushNotifications: facts.push === true });
  // Extensions in use are declared (A2A 1.0 §4.6.1); the card's own entries win for the same URI.
  const declared = withDeclarations(input.capabilities.extensions, facts.extensions ?? []);
  if (declared !== undefined) capabilities.extensions = declared;
  return Object.assign({}, input, { supportedInterfaces: interfaces, capabilities });
}

/** How a card's wire JSON is finished. */
export interface CardJsonOptions {
  decorate?: CardDecorator | undefined;
  signer?: CardSigner | undefined;
  /** The wire form (default: the version's JSON-RPC card, which is also the well-known one). */
  encode?: (card: AgentCard) => unknown;
}

/** `card` as `version`'s wire JSON: encoded, decorated, then signed over what is served. */
export async function servedCardJson(
  card: AgentCard,
  version: ProtocolVersion,
  options: CardJsonOptions = {},
): Promise<Record<string, unknown>> {
  const codec = version === '1.0' ? v1_0Codec : v0_3JsonRpcCodec;
  let json = (options.encode ?? ((c) => codec.encodeAgentCard(c)))(card) as Record<string, unknown>;
  delete json.signatures;
  // Decorated before signing, so the signature covers what is served (A2A 1.0 §8.4).
  if (options.decorate !== undefined) json = options.decorate(json, version);
  // A signer with no keys (a host whose config has none, for now) leaves the card unsigned.
  const signatures = options.signer === undefined ? [] : await options.signer(json, version);
  if (signatures.length > 0) json.signatures = signatures;
  return json;
}
