/**
 * The AUMP profile (`profile.schema.json`): the discovery document an AUMP-capable agent serves at
 * `/.well-known/aump` below its base URL (AUMP schemas/profile.schema.json, Agentic-User-Mandate-Protocol/spec; decision 0058). It says
 * which AUMP versions and schemas the agent uses and how to reach it over the A2A binding; Concord
 * offers the A2A binding only, so that is the one binding listed.
 */
import type { AgentCard } from '../../protocol/index.js';
import { AUMP_A2A_EXTENSION_URI, AUMP_SCHEMA_URIS, AUMP_SPEC_URL, AUMP_VERSION } from './constants.js';

/** A profile document (profile.schema.json). */
export interface AumpProfile {
  aump: { version: string; type: 'profile' };
  issuer: { id: string; name: string; homepage_url?: string };
  supported_versions: string[];
  schemas: { mandate: string; profile: string; action_evaluation: string; evidence_event: string };
  bindings: Partial<Record<'mcp' | 'a2a' | 'ucp_ap2' | 'rest', AumpBinding>>;
  revocation?: { endpoint?: string; supports_status_list?: boolean };
  signing_keys?: { kid: string; kty: string; [key: string]: unknown }[];
}

/** One binding entry of a profile. */
export interface AumpBinding {
  supported: boolean;
  endpoint?: string;
  spec?: string;
  methods?: string[];
}

/** Options of `aumpProfile`. */
export interface AumpProfileOptions {
  /** The issuer's name (default: the card's name). */
  issuerName?: string;
}

/** The profile of the agent `card` describes (its first interface URL is its base URL). */
export function aumpProfile(card: AgentCard, options: AumpProfileOptions = {}): AumpProfile {
  const base = card.supportedInterfaces[0]?.url ?? 'http://localhost/';
  const homepage = card.provider?.url ?? card.documentationUrl;
  return {
    aump: { version: AUMP_VERSION, type: 'profile' },
    issuer: {
      id: base,
      name: options.issuerName ?? card.name,
      ...(homepage === undefined || homepage === '' ? {} : { homepage_url: homepage }),
    },
    supported_versions: [AUMP_VERSION],
    schemas: {
      mandate: AUMP_SCHEMA_URIS.mandate,
      profile: AUMP_SCHEMA_URIS.profile,
      action_evaluation: AUMP_SCHEMA_URIS['action-evaluation'],
      evidence_event: AUMP_SCHEMA_URIS['evidence-event'],
    },
    bindings: {
      a2a: {
        supported: true,
        endpoint: new URL('.well-known/agent-card.json', base).href,
        spec: `${AUMP_SPEC_URL}/bindings/a2a`,
        methods: ['A2A-Extensions', 'message.extensions', `message.metadata.${AUMP_A2A_EXTENSION_URI}`],
      },
    },
  };
}
