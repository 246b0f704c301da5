/**
 * The canonical AgentCard, shaped like A2A 1.0 (`lf.a2a.v1.AgentCard`). The 0.3 form is derived
 * from it at the edge (`v0_3/agent-card.ts`); see A2A 1.0 §4.4.1 and A2A 0.3 §5.5 for the two forms.
 */
import type { Metadata } from './model.js';

/** Protocol binding names (A2A 1.0 §5.3, §5.8); custom bindings use a URI. */
export type ProtocolBinding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC' | (string & {});

/** One endpoint of the agent: a URL, the binding it speaks and the protocol version. */
export interface AgentInterface {
  url: string;
  protocolBinding: ProtocolBinding;
  /** `Major.Minor`, e.g. `"1.0"` or `"0.3"` (A2A 1.0 §3.6). */
  protocolVersion: string;
  tenant?: string;
}

/** Who runs the agent. */
export interface AgentProvider {
  organization: string;
  url: string;
}

/** An extension the agent supports (A2A 1.0 §4.4.4). */
export interface AgentExtension {
  uri: string;
  description?: string;
  required?: boolean;
  params?: Metadata;
}

/** Optional features; a flag that is false or absent means "not supported" (A2A 1.0 §3.3.4). */
export interface AgentCapabilities {
  streaming?: boolean;
  pushNotifications?: boolean;
  extensions?: AgentExtension[];
  extendedAgentCard?: boolean;
}

/** OAuth scopes name -> description. */
export type OAuthScopes = Record<string, string>;

/** One OAuth 2.0 flow (1.0 holds exactly one per `OAuthFlows`). */
export interface OAuthFlows {
  authorizationCode?: {
    authorizationUrl: string;
    tokenUrl: string;
    refreshUrl?: string;
    scopes: OAuthScopes;
    pkceRequired?: boolean;
  };
  clientCredentials?: { tokenUrl: string; refreshUrl?: string; scopes: OAuthScopes };
  deviceCode?: { deviceAuthorizationUrl: string; tokenUrl: string; refreshUrl?: string; scopes: OAuthScopes };
  implicit?: { authorizationUrl: string; refreshUrl?: string; scopes: OAuthScopes };
  password?: { tokenUrl: string; refreshUrl?: string; scopes: OAuthScopes };
}

/** A security scheme, as the 1.0 oneof wrapper (A2A 1.0 §4.5.1). */
export type SecurityScheme =
  | { apiKeySecurityScheme: { description?: string; location: 'query' | 'header' | 'cookie'; name: string } }
  | { httpAuthSecurityScheme: { description?: string; scheme: string; bearerFormat?: string } }
  | { oauth2SecurityScheme: { description?: string; flows: OAuthFlows; oauth2MetadataUrl?: string } }
  | { openIdConnectSecurityScheme: { description?: string; openIdConnectUrl: string } }
  | { mtlsSecurityScheme: { description?: string } };

/** One alternative of required schemes (AND within, OR across the array). Proto form. */
export interface SecurityRequirement {
  schemes: Record<string, { list: string[] }>;
}

/** A capability of the agent (A2A 1.0 §4.4.5). */
export interface AgentSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
  securityRequirements?: SecurityRequirement[];
}

/** A detached JWS over the card's JCS form (A2A 1.0 §8.4). */
export interface AgentCardSignature {
  protected: string;
  signature: string;
  header?: Metadata;
}

/** The agent's self-description, served at `/.well-known/agent-card.json`. */
export interface AgentCard {
  name: string;
  description: string;
  supportedInterfaces: AgentInterface[];
  provider?: AgentProvider;
  version: string;
  documentationUrl?: string;
  capabilities: AgentCapabilities;
  securitySchemes?: Record<string, SecurityScheme>;
  securityRequirements?: SecurityRequirement[];
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: AgentSkill[];
  signatures?: AgentCardSignature[];
  iconUrl?: string;
}
