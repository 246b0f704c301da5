/**
 * AUMP evidence events (AUMP schemas/evidence-event.schema.json, Agentic-User-Mandate-Protocol/spec; decision 0057): building one under
 * a mandate's evidence policy, its place in the hash chain, and the conformance suite's semantic
 * check.
 *
 * Chain: every event carries `hashes.event_hash`, the AUMP hash of the event itself without that
 * one member, and (after the first) `hashes.previous_event_hash`, the event_hash of the event
 * before it; `sequence` counts from 1 without gaps (verified in evidence-chain.ts).
 *
 * Retention (`evidence.retention` of the mandate) decides what an event keeps: `summary_only` keeps
 * the summary and classification and drops content hashes; `hashes` keeps content as hashes only
 * (action, transcript); `full_transcript` may also keep private fields, and only when the mandate
 * says `store_private_fields: true`. `none` keeps nothing: no event is stored.
 */
import { mandateHash, sha256Of } from './canonical-hash.js';
import { validateMandateSemantics } from './mandate.js';
import type {
  DownstreamRef,
  EvidenceActor,
  EvidenceEvent,
  EvidenceResult,
  Mandate,
  ProposedAction,
} from './mandate-types.js';
import { pointerToAumpPath, validateAumpSchema } from './schemas.js';

/** What happened, as the caller tells it; the policy decides what of it is kept. */
export interface EvidenceInput {
  /** Must be one of the mandate's `evidence.events_required` when that list is not empty. */
  eventType: string;
  summary: string;
  result: EvidenceResult;
  /** The action concerned; kept as type and summary, plus its hash when retention keeps hashes. */
  action?: Pick<ProposedAction, 'type' | 'summary'> & Partial<ProposedAction>;
  reasonCodes?: string[];
  paths?: string[];
  /** Where this happened in other protocols, e.g. `{protocol: 'a2a', id: <messageId>}`. */
  downstreamRefs?: DownstreamRef[];
  /** Scalar facts (ids, counts); AUMP allows no nested values here. */
  metadata?: Record<string, string | number | boolean | null>;
  /** Content the event is about (a message, a transcript): never stored, only hashed. */
  transcript?: unknown;
  /** The event keeps private mandate fields (allowed only under full_transcript + store_private_fields). */
  containsPrivateFields?: boolean;
  protectedFields?: string[];
  actor?: EvidenceActor;
}

/** A refusal to record: the input breaks the mandate's evidence policy. */
export class EvidencePolicyError extends Error {
  override readonly name = 'EvidencePolicyError';

  constructor(
    /** An AUMP reason code: evidence_event_type_not_required, evidence_private_field_leak, ... */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The event_hash of `event`: its AUMP hash without `hashes.event_hash` (and without `hashes` at all
 * when nothing else is in it, so `{}` and absent hash alike).
 */
export function eventHash(event: EvidenceEvent): string {
  const { hashes, ...rest } = event;
  const { event_hash: _own, ...links } = hashes ?? {};
  return sha256Of(Object.keys(links).length === 0 ? rest : { ...rest, hashes: links });
}

/** The private strings of a mandate that must never appear in evidence kept without private fields. */
function privateStrings(mandate: Mandate): string[] {
  return (mandate.preferences.private_notes ?? []).filter((note) => note.trim().length >= 8);
}

/** Refuses an input the mandate's evidence policy forbids; see the file comment. */
export function checkEvidencePolicy(mandate: Mandate, input: EvidenceInput): void {
  const policy = mandate.evidence;
  if (policy.events_required.length > 0 && !policy.events_required.includes(input.eventType)) {
    throw new EvidencePolicyError(
      'evidence_event_type_not_required',
      `event type "${input.eventType}" is not in mandate ${mandate.id}'s evidence.events_required (${policy.events_required.join(', ')})`,
    );
  }
  const mayKeepPrivate = policy.retention === 'full_transcript' && policy.store_private_fields === true;
  if (input.containsPrivateFields === true && !mayKeepPrivate) {
    throw new EvidencePolicyError(
      'evidence_private_field_leak',
      `mandate ${mandate.id} keeps evidence as ${policy.retention}${policy.store_private_fields === true ? '' : ' without private fields'}: an event with private fields cannot be recorded`,
    );
  }
  if (!mayKeepPrivate) {
    const text = JSON.stringify([input.summary, input.action?.summary, input.metadata ?? null]);
    if (privateStrings(mandate).some((secret) => text.includes(JSON.stringify(secret).slice(1, -1)))) {
      throw new EvidencePolicyError(
        'evidence_private_field_leak',
        `the event would keep a private note of mandate ${mandate.id}; describe it without the note`,
      );
    }
  }
}

/** Where an event goes in its chain and when it happened. */
export interface EventPlacement {
  id: string;
  sequence: number;
  createdAt: Date;
  /** The event_hash of the chain's last event; undefined for the first. */
  previousHash: string | undefined;
  actor: EvidenceActor;
}

/** The event for `input` under `mandate`'s policy, hashed and linked; see the file comment. */
export function buildEvidenceEvent(
  mandate: Mandate,
  input: EvidenceInput,
  at: EventPlacement,
): EvidenceEvent {
  const { retention } = mandate.evidence;
  const keepsHashes = retention === 'hashes' || retention === 'full_transcript';
  const event: EvidenceEvent = {
    aump: { version: mandate.aump.version, type: 'evidence_event' },
    id: at.id,
    mandate_ref: { id: mandate.id, hash: mandateHash(mandate), version: mandate.aump.version },
    sequence: at.sequence,
    created_at: at.createdAt.toISOString(),
    event_type: input.eventType,
    summary: input.summary,
    result: input.result,
    actor: input.actor ?? at.actor,
    privacy: {
      retention,
      contains_private_fields: input.containsPrivateFields === true,
      redaction: retention === 'full_transcript' ? 'none' : keepsHashes ? 'hash' : 'summary',
      ...(input.protectedFields === undefined ? {} : { protected_fields: [...input.protectedFields] }),
    },
  };
  if (input.action !== undefined) {
    event.action = { type: input.action.type, summary: input.action.summary };
    if (keepsHashes) event.action.hash = sha256Of(input.action);
  }
  if (input.reasonCodes !== undefined) event.reason_codes = [...input.reasonCodes];
  if (input.paths !== undefined) event.paths = [...input.paths];
  if (input.downstreamRefs !== undefined) {
    event.downstream_refs = input.downstreamRefs.map(({ hash, ...ref }) =>
      keepsHashes && hash !== undefined ? { ...ref, hash } : ref,
    );
  }
  if (input.metadata !== undefined) event.metadata = { ...input.metadata };
  const hashes: NonNullable<EvidenceEvent['hashes']> = {};
  if (at.previousHash !== undefined) hashes.previous_event_hash = at.previousHash;
  if (keepsHashes && input.transcript !== undefined) hashes.transcript_hash = sha256Of(input.transcript);
  event.hashes = hashes;
  hashes.event_hash = eventHash(event);
  return event;
}

/** The result of the semantic check: valid, or the reason codes with their paths. */
export interface EvidenceCheck {
  valid: boolean;
  reason_codes: string[];
  paths: string[];
}

/**
 * The conformance suite's semantic check of one event against its mandate at `now`: the mandate's
 * own state (skipped with `mandateState: false`, for events recorded in the past), the reference
 * (`evidence_mandate_mismatch`; the hash only when the ids match), the event type, the retention,
 * and private fields kept where the policy forbids them.
 */
export function validateEvidenceEvent(
  mandate: Mandate,
  event: EvidenceEvent,
  options: { now: Date; mandateState?: boolean },
): EvidenceCheck {
  const codes: string[] = [];
  const paths: string[] = [];
  const add = (code: string, path: string): void => {
    codes.push(code);
    paths.push(path);
  };
  const schema = validateAumpSchema('evidence-event', event);
  for (const problem of schema) add('schema_invalid', pointerToAumpPath(problem.path));
  if (schema.length > 0) return { valid: false, reason_codes: codes, paths };
  if (options.mandateState !== false) {
    const state = validateMandateSemantics(mandate, { now: options.now });
    state.reason_codes.forEach((code, i) => add(code, state.paths[i]!));
  }
  if (event.mandate_ref.id !== mandate.id) add('evidence_mandate_mismatch', '$.mandate_ref.id');
  else if (event.mandate_ref.hash !== mandateHash(mandate))
    add('evidence_mandate_hash_mismatch', '$.mandate_ref.hash');
  const policy = mandate.evidence;
  if (policy.events_required.length > 0 && !policy.events_required.includes(event.event_type)) {
    add('evidence_event_type_not_required', '$.event_type');
  }
  if (event.privacy.retention !== policy.retention) add('evidence_retention_mismatch', '$.privacy.retention');
  if (
    event.privacy.contains_private_fields &&
    (policy.retention !== 'full_transcript' || policy.store_private_fields !== true)
  ) {
    add('evidence_private_field_leak', '$.privacy.contains_private_fields');
  }
  return { valid: codes.length === 0, reason_codes: codes, paths };
}
