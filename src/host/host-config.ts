/**
 * The host configuration (`concord.config.json5`), after loading and validation: organisation,
 * security schemes with their verification settings, card signing keys, the model endpoint, the
 * MCP servers and the agents. Secrets may be given inline or, better, as `{ env: "NAME" }` references resolved at load.
 */
import type { AgentDefinition, SecurityRequirementInput } from '../card/index.js';

/** The organisation running the host; becomes every card's `provider`. */
export interface OrganizationConfig {
  name: string;
  url: string;
}

/** Bearer tokens that are JWTs, verified with `jose`. */
export interface BearerSchemeConfig {
  type: 'http';
  scheme: 'bearer';
  bearerFormat?: string;
  description?: string;
  /** A JWKS: an https URL, or a path to a JSON file (relative to the config file). */
  jwks?: string;
  /** A shared HMAC key (HS256/384/512), for development and tests. */
  secret?: string;
  issuer?: string;
  audience?: string;
  /** Claim holding the principal name (default `sub`). */
  principalClaim?: string;
}

/** One accepted API key and who it stands for. */
export interface ApiKeyEntry {
  /** The key itself (prefer an `{ env }` reference in the file; resolved by the loader). */
  key: string;
  principal: string;
  scopes: string[];
}

/** API keys in a header, query parameter or cookie (A2A 1.0 §4.5 APIKeySecurityScheme). */
export interface ApiKeySchemeConfig {
  type: 'apiKey';
  in: 'header' | 'query' | 'cookie';
  name: string;
  description?: string;
  keys: ApiKeyEntry[];
}

/** A scheme the host declares (and enforces). */
export type SecuritySchemeConfig = BearerSchemeConfig | ApiKeySchemeConfig;

/** Organisation-wide security, merged into every card. */
export interface SecurityConfig {
  schemes: Record<string, SecuritySchemeConfig>;
  /** Alternatives (OR) of scheme sets (AND); empty means the schemes are offered, not required. */
  requirements: SecurityRequirementInput[];
  /** Scope that lets an authenticated caller reach agents with `exposed: false` (default `agents:internal`). */
  internalScope: string;
}

/** A key that signs the cards (A2A 1.0 §8.4). */
export interface SigningKeyConfig {
  kid: string;
  alg: 'ES256' | 'EdDSA' | 'ES384' | 'RS256' | 'PS256';
  /** PEM (PKCS#8) of the private key, read from `privateKeyFile` by the loader. */
  privateKeyPem: string;
  /** Advertised in the JWS header so verifiers can find the public key. */
  jku?: string;
}

/** The OpenAI-compatible endpoint model agents call. */
export interface ModelEndpointConfig {
  /** E.g. `https://api.openai.com/v1`; default from `OPENAI_BASE_URL`. */
  baseUrl?: string;
  /** Default from `OPENAI_API_KEY`. */
  apiKey?: string;
}

/**
 * How the host's agents reach agents on other hosts (agent-to-agent send to a URL, decision
 * 0031). The client's SSRF guard applies: private, loopback and link-local targets are refused
 * unless allowed here.
 */
export interface OutboundConfig {
  allowPrivateNetworks?: boolean;
  /** Host names or IP literals exempt from the private-address check (e.g. `127.0.0.1`). */
  allowedHosts?: string[];
  /** Per-request timeout in ms (default 30 000). */
  timeoutMs?: number;
}

/** Push notifications of the host's agents (decisions 0086-0090). */
export interface PushConfig {
  /** Default true. */
  enabled: boolean;
  /** Host names, IP literals or CIDR blocks webhooks may reach although private. */
  allow: string[];
  /** The secret key as written (hex or base64), resolved from the environment if referenced. */
  secretKey?: string;
  timeoutMs?: number;
  retry?: { maxAttempts?: number; initialDelayMs?: number; maxDelayMs?: number };
}

/** Where a host-level setting was written, for errors found when the host starts. */
export interface ConfigLocation {
  file: string;
  /** JSON Pointer within the file. */
  field: string;
  line?: number;
}

/** An MCP server started as a child process, spoken to over stdin/stdout (MCP stdio transport). */
export interface McpStdioServerConfig {
  transport: 'stdio';
  command: string;
  args: string[];
  /** Added to the few variables every server gets (PATH, HOME...); the host's own are not passed on. */
  env: Record<string, string>;
  /** Absolute working directory (default: the directory of the file that defines the server). */
  cwd: string;
  source: ConfigLocation;
}

/** An MCP server reached over the streamable HTTP transport. */
export interface McpHttpServerConfig {
  transport: 'http';
  url: string;
  /** Sent with every request (e.g. `authorization`); values may come from the environment. */
  headers: Record<string, string>;
  source: ConfigLocation;
}

/** An MCP server model agents may use (host config `mcpServers`, decision 0023). */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** The whole host configuration. */
export interface HostConfig {
  /** The config file, or the directory served when there is none. */
  source: string;
  organization?: OrganizationConfig;
  security?: SecurityConfig;
  signing: SigningKeyConfig[];
  model: ModelEndpointConfig;
  /** Remote sends; absent means the client's defaults (public addresses only). */
  outbound?: OutboundConfig;
  /** Push notifications; absent means on, with no private webhook targets allowed. */
  push?: PushConfig;
  /** The default of every agent's `idempotency` (decision 0133): is a repeated messageId a retry? */
  idempotency?: { messageId?: boolean };
  /**
   * How many agent-to-agent sends one chain may make (1-64; absent: 8). A send past it is refused
   * with the chain in the error, and so is a message arriving past it (decision 0148).
   */
  maxAgentHops?: number;
  /** The URL clients reach the HTTP listener at (decisions 0138, 0149); a flag or the environment wins. */
  publicUrl?: string;
  /** Where clients reach the gRPC listener: `host:port`, or a URL (decision 0138). */
  grpcPublicUrl?: string;
  /** Read the client's scheme and host from the proxy's forwarding headers (decision 0149). */
  trustProxy?: boolean;
  /** Serve the AI Catalog at `/.well-known/ai-catalog.json` (default true; decision 0167). */
  aiCatalog?: boolean;
  /** MCP servers by name; agents pick from them in their `mcpServers`. */
  mcpServers: Record<string, McpServerConfig>;
  agents: AgentDefinition[];
}
