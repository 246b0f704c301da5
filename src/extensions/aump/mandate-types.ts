/**
 * The AUMP v0.1 documents as TypeScript types, mirroring `schemas/aump/*.schema.json` (closed
 * objects everywhere; AUMP schemas/mandate.schema.json and evidence-event.schema.json, Agentic-User-Mandate-Protocol/spec). The schemas are
 * what is enforced; these types are what code may rely on after validation.
 */

/** `aump` header of every document. */
export interface AumpHeader<T extends string> {
  version: string;
  type: T;
}

/** Where a mandate stands; only `active` mandates authorise anything. */
export type MandateStatus =
  'draft' | 'presented' | 'active' | 'suspended' | 'revoked' | 'expired' | 'superseded';

/** A disclosure rule: a field path and when it may (or may never) be shared. */
export interface DisclosureRule {
  field: string;
  condition: string;
  counterparty_scope?: string;
}

/** A preference or constraint the principal stated. */
export interface PreferenceRule {
  id: string;
  description: string;
  weight?: number;
  protected?: boolean;
}

/** What the mandate says about evidence: how much is kept and which events must be recorded. */
export interface EvidencePolicy {
  retention: 'none' | 'summary_only' | 'hashes' | 'full_transcript';
  events_required: string[];
  transcript_hash_alg?: 'sha-256' | 'sha-384' | 'sha-512';
  store_private_fields?: boolean;
}

/** A user mandate: the private, signed statement of what an agent may do for its principal. */
export interface Mandate {
  aump: AumpHeader<'mandate'>;
  id: string;
  status: MandateStatus;
  issued_at: string;
  expires_at: string;
  supersedes?: string;
  principal: {
    type: 'person' | 'household' | 'organization' | 'team' | 'service_account';
    display_name: string;
    subject?: string;
    jurisdiction?: string;
  };
  agent: {
    id: string;
    name: string;
    provider?: string;
    model?: string;
    a2a_agent_card_url?: string;
    mcp_client_id?: string;
  };
  purpose: {
    summary: string;
    domain: string;
    intent: string;
    allowed_categories?: string[];
    allowed_counterparties?: string[];
    excluded_counterparties?: string[];
  };
  authority: {
    mode: 'advisory' | 'supervised' | 'delegated';
    permissions: string[];
    prohibited_actions: string[];
    budget?: {
      currency: string;
      max_total_minor: number;
      max_item_minor?: number;
      max_shipping_minor?: number;
    };
    requires_trusted_ui_for_commitment?: boolean;
  };
  preferences: {
    hard_constraints: PreferenceRule[];
    soft_preferences: PreferenceRule[];
    dealbreakers: string[];
    ranked_needs?: string[];
    acceptable_substitutes?: string[];
    private_notes?: string[];
  };
  negotiation: {
    strategy: 'friendly' | 'firm' | 'value_seeking' | 'speed_first' | 'relationship_first' | 'custom';
    communication_style: string;
    max_rounds: number;
    walk_away_conditions: string[];
    target_price_minor?: number;
    reservation_price_minor?: number;
    opening_offer_minor?: number;
    concession_policy?: string;
    bundle_allowed?: boolean;
    trade_allowed?: boolean;
    protected_fields?: string[];
  };
  disclosure: {
    default: 'deny' | 'allow';
    allowed: DisclosureRule[];
    prohibited: DisclosureRule[];
    public_summary?: string;
  };
  escalation: {
    required_conditions: string[];
    contact_modes: string[];
    confidence_threshold?: number;
    approval_timeout_seconds?: number;
  };
  evidence: EvidencePolicy;
  signatures?: { type: 'jws-detached' | 'jws' | 'vc-sd-jwt'; alg: string; kid: string; value: string }[];
  links?: { type: string; url: string; title?: string }[];
}

/** How a message or an event points at a mandate without carrying it. */
export interface MandateRef {
  id: string;
  hash: string;
  version: string;
  url?: string;
}

/** A money amount in minor units (cents). */
export interface Amount {
  currency: string;
  total_minor: number;
}

/** A reference to something in another protocol (an A2A message, an MCP call, a listing). */
export interface DownstreamRef {
  protocol: string;
  id: string;
  hash?: string;
  url?: string;
}

/** An action an agent proposes to take (action-evaluation.schema.json `$defs/action`, open). */
export interface ProposedAction {
  type: string;
  summary: string;
  counterparty?: string;
  amount?: Amount;
  disclosures?: { field: string; content: string }[];
  downstream_refs?: DownstreamRef[];
  /** Marks the action as a commitment even when its type is not one of the commitment types. */
  commitment?: boolean;
  [key: string]: unknown;
}

/** The situation an action is evaluated in. */
export interface EvaluationContext {
  /** Escalation conditions that hold now (matched against `escalation.required_conditions`). */
  conditions?: string[];
  /** The agent's confidence, 0..1 (compared with `escalation.confidence_threshold`). */
  confidence?: number;
  /** The principal approved this commitment in a trusted UI. */
  trusted_ui_approved?: boolean;
  [key: string]: unknown;
}

/** An evaluation's outcome; deny outranks escalate. */
export type Decision = 'allowed' | 'requires_escalation' | 'denied';

/** The action evaluation response (action-evaluation.schema.json `$defs/response`). */
export interface ActionEvaluation {
  aump: AumpHeader<'action_evaluation_response'>;
  mandate_ref: { id: string; hash?: string; version?: string };
  decision: Decision;
  reason_codes: string[];
  paths: string[];
  summary: string;
  required_escalation?: { channel?: string; prompt?: string; expires_at?: string };
}

/** What an evidence event says happened. */
export type EvidenceResult = 'allowed' | 'requires_escalation' | 'denied' | 'received' | 'recorded' | 'error';

/** Who caused an evidence event. */
export interface EvidenceActor {
  role: 'principal' | 'agent' | 'runtime' | 'counterparty' | 'issuer' | 'verifier';
  id: string;
}

/** One evidence event (evidence-event.schema.json). */
export interface EvidenceEvent {
  aump: AumpHeader<'evidence_event'>;
  id: string;
  mandate_ref: MandateRef;
  sequence: number;
  created_at: string;
  event_type: string;
  summary: string;
  result: EvidenceResult;
  actor: EvidenceActor;
  action?: { type: string; summary: string; hash?: string };
  reason_codes?: string[];
  paths?: string[];
  downstream_refs?: DownstreamRef[];
  privacy: {
    retention: EvidencePolicy['retention'];
    contains_private_fields: boolean;
    redaction?: 'none' | 'summary' | 'hash' | 'field_redacted';
    protected_fields?: string[];
  };
  hashes?: { event_hash?: string; previous_event_hash?: string; transcript_hash?: string };
  metadata?: Record<string, string | number | boolean | null>;
}
