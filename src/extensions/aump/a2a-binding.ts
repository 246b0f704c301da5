/**
 * The AUMP A2A binding (seed aump-a2a-binding.md): the Agent Card declaration, the message that
 * carries only an extension-scoped reference to a mandate (`mandate_id`, `mandate_hash`,
 * `version`) with its `A2A-Extensions` activation, and the validator a receiver runs on such a
 * message. The validator's checks, their order and their error strings are the reference SDK's
 * (the `a2a_message` check of Agentic-User-Mandate-Protocol/aump-js); the ones it adds are listed at `validateA2aMessage`.
 */
import { randomUUID } from 'node:crypto';
import type { AgentExtension, Message, Metadata, Part, Role } from '../../protocol/index.js';
import { AUMP_HASH_PATTERN, mandateHash } from './canonical-hash.js';
import { AUMP_A2A_EXTENSION_URI, AUMP_VERSION } from './constants.js';
import { validateMandateSemantics } from './mandate.js';
import { findEmbeddedMandates } from './mandate-leak.js';
import type { Mandate } from './mandate-types.js';

/** The metadata a message carries under the extension URI: a reference, never the mandate. */
export interface A2aMandateReference {
  mandate_id: string;
  mandate_hash: string;
  version: string;
  /** The sender's evidence event for this message, when it shares it. */
  evidence_id?: string;
}

/** A message with the activation it needs: send `headers` with the request that carries `message`. */
export interface A2aMandateMessage {
  headers: { 'A2A-Extensions': string };
  message: Message;
}

/** What `a2aMessage` takes besides the mandate. */
export interface A2aMessageInput {
  /** Default: a fresh `msg_<uuid>`. It is the idempotency key the evidence records. */
  messageId?: string;
  /** `user` / `agent` (the seed's spelling) or Concord's `ROLE_USER` / `ROLE_AGENT`; default user. */
  role?: 'user' | 'agent' | Role;
  parts: Part[];
  contextId?: string;
  taskId?: string;
  /** Other metadata of the message; the AUMP key is set by `a2aMessage`. */
  metadata?: Metadata;
  evidenceId?: string;
}

/** The `capabilities.extensions[]` entry of an agent that supports AUMP (seed "Agent Card Declaration"). */
export function aumpAgentExtension(
  description = 'Supports AUMP mandate references and action evaluation.',
): AgentExtension {
  // Optional by default: clients activate it per request (seed "Extension URI").
  return { uri: AUMP_A2A_EXTENSION_URI, description, required: false, params: { versions: [AUMP_VERSION] } };
}

/** The reference a message carries for `mandate`. */
export function mandateReference(mandate: Mandate, evidenceId?: string): A2aMandateReference {
  const ref: A2aMandateReference = {
    mandate_id: mandate.id,
    mandate_hash: mandateHash(mandate),
    version: mandate.aump.version,
  };
  if (evidenceId !== undefined) ref.evidence_id = evidenceId;
  return ref;
}

function roleOf(role: A2aMessageInput['role']): Role {
  if (role === undefined || role === 'user' || role === 'ROLE_USER') return 'ROLE_USER';
  if (role === 'agent' || role === 'ROLE_AGENT') return 'ROLE_AGENT';
  throw new TypeError(`a2aMessage: role must be user or agent, got ${String(role)}`);
}

/**
 * The A2A message for `parts` under `mandate`: the extension listed in `message.extensions`, the
 * reference under `metadata[<URI>]`, and the `A2A-Extensions` header to activate it. The mandate
 * itself is never copied into the message.
 */
export function a2aMessage(mandate: Mandate, input: A2aMessageInput): A2aMandateMessage {
  const message: Message = {
    messageId: input.messageId ?? `msg_${randomUUID()}`,
    role: roleOf(input.role),
    parts: input.parts,
    extensions: [AUMP_A2A_EXTENSION_URI],
    metadata: { ...input.metadata, [AUMP_A2A_EXTENSION_URI]: mandateReference(mandate, input.evidenceId) },
  };
  if (input.contextId !== undefined) message.contextId = input.contextId;
  if (input.taskId !== undefined) message.taskId = input.taskId;
  return { headers: { 'A2A-Extensions': AUMP_A2A_EXTENSION_URI }, message };
}

/** One validation failure and where it is (JSON Pointer into `{headers, message}`, or a header name). */
export interface A2aProblem {
  path: string;
  message: string;
}

/** The outcome of `validateA2aMessage` (the seed's `{valid, errors, mandate_ref}`, plus where). */
export interface A2aValidation {
  valid: boolean;
  /** The seed's error strings, in check order. */
  errors: string[];
  /** The extension-scoped metadata object, when the message has one. */
  mandate_ref: Record<string, unknown> | undefined;
  /** The same failures with their locations. */
  problems: A2aProblem[];
}

/** Options of `validateA2aMessage`. */
export interface A2aValidationOptions {
  /** Mandates the receiver knows: a reference to one of them has its hash recomputed and compared. */
  mandates?: Iterable<Mandate> | Readonly<Record<string, Mandate>>;
  /** With a known mandate, also check it is active and unexpired at this instant. */
  now?: Date;
  /** Mandate ids revoked by their issuer: references to them are refused. */
  revoked?: ReadonlySet<string>;
  /** Also require `mandate_hash` to be `sha256-` + 64 hex (the suite's fixtures use placeholders). */
  strict?: boolean;
  /** The request's own metadata, scanned for embedded mandates too. */
  requestMetadata?: Metadata;
}

const ERR = {
  messageId: 'missing message.messageId',
  activation: 'missing A2A-Extensions activation for AUMP',
  extensions: 'missing message.extensions AUMP URI',
  metadata: 'missing extension-scoped AUMP message metadata',
  leak: 'A2A message must not embed full private AUMP mandate',
  hash: 'A2A mandate hash mismatch',
} as const;

const METADATA_POINTER = `/message/metadata/${AUMP_A2A_EXTENSION_URI.replace(/~/g, '~0').replace(/\//g, '~1')}`;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a header value (comma-separated URIs) activates AUMP; names are matched case-insensitively. */
function activates(headers: unknown): boolean {
  if (!isObject(headers)) return false;
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower !== 'a2a-extensions' && lower !== 'x-a2a-extensions') continue;
    const list = Array.isArray(value) ? value.join(',') : String(value);
    if (list.split(',').some((uri) => uri.trim() === AUMP_A2A_EXTENSION_URI)) return true;
  }
  return false;
}

function knownMandate(options: A2aValidationOptions, id: string): Mandate | undefined {
  const { mandates } = options;
  if (mandates === undefined) return undefined;
  if (Symbol.iterator in mandates) {
    for (const mandate of mandates as Iterable<Mandate>) if (mandate.id === id) return mandate;
    return undefined;
  }
  const record = mandates as Readonly<Record<string, Mandate>>;
  return Object.hasOwn(record, id) ? record[id] : undefined;
}

/**
 * Checks a message that claims to act under a mandate. `input` is `{headers, message}` or a bare
 * message (whose activation check then fails, as in the reference SDK). In order: messageId,
 * activation, `message.extensions`, the extension-scoped metadata (absent: stop here), no embedded
 * mandate anywhere (mandate-leak.ts), the three reference fields, and — when the mandate is among
 * `options.mandates` — its recomputed hash ("A2A mandate hash mismatch"). Added by Concord: with
 * `now`, a known mandate must be active and unexpired; a revoked id is refused; `strict` checks
 * the hash's form.
 */
export function validateA2aMessage(input: unknown, options: A2aValidationOptions = {}): A2aValidation {
  const wrapped = isObject(input) && isObject(input.message);
  const message = (wrapped ? (input as { message: Record<string, unknown> }).message : input) as
    Record<string, unknown> | undefined;
  const problems: A2aProblem[] = [];
  const fail = (path: string, text: string): void => {
    problems.push({ path, message: text });
  };
  const done = (ref: Record<string, unknown> | undefined): A2aValidation => ({
    valid: problems.length === 0,
    errors: problems.map((p) => p.message),
    mandate_ref: ref,
    problems,
  });
  const m = isObject(message) ? message : {};
  if (typeof m.messageId !== 'string' || m.messageId === '') fail('/message/messageId', ERR.messageId);
  if (!activates(wrapped ? (input as { headers?: unknown }).headers : undefined))
    fail('A2A-Extensions', ERR.activation);
  if (!(Array.isArray(m.extensions) && m.extensions.includes(AUMP_A2A_EXTENSION_URI))) {
    fail('/message/extensions', ERR.extensions);
  }
  const metadata = isObject(m.metadata) ? m.metadata : undefined;
  const scoped = metadata?.[AUMP_A2A_EXTENSION_URI];
  if (!isObject(scoped)) {
    fail(METADATA_POINTER, ERR.metadata);
    return done(undefined);
  }
  const ref = { ...scoped };
  const leaks = findEmbeddedMandates(m as Partial<Message>, options.requestMetadata);
  if (leaks.length > 0) fail(leaks[0]!, ERR.leak);
  for (const field of ['mandate_id', 'mandate_hash', 'version'] as const) {
    const value = scoped[field];
    if (typeof value !== 'string' || value === '')
      fail(`${METADATA_POINTER}/${field}`, `missing A2A AUMP metadata ${field}`);
  }
  const id = typeof scoped.mandate_id === 'string' ? scoped.mandate_id : undefined;
  const hash = typeof scoped.mandate_hash === 'string' ? scoped.mandate_hash : undefined;
  if (options.strict === true && hash !== undefined && hash !== '' && !AUMP_HASH_PATTERN.test(hash)) {
    fail(`${METADATA_POINTER}/mandate_hash`, 'A2A mandate hash must be sha256- and 64 lowercase hex digits');
  }
  if (id !== undefined && options.revoked?.has(id) === true) {
    fail(`${METADATA_POINTER}/mandate_id`, `A2A mandate ${id} is revoked`);
  }
  const known = id === undefined ? undefined : knownMandate(options, id);
  if (known !== undefined) {
    if (hash !== undefined && hash !== mandateHash(known)) fail(`${METADATA_POINTER}/mandate_hash`, ERR.hash);
    if (options.now !== undefined) {
      const check = validateMandateSemantics(known, { now: options.now });
      if (check.reason_codes.includes('mandate_inactive')) {
        fail(
          `${METADATA_POINTER}/mandate_id`,
          `A2A mandate ${known.id} is not active (status ${known.status})`,
        );
      }
      if (check.reason_codes.includes('mandate_expired')) {
        fail(`${METADATA_POINTER}/mandate_id`, `A2A mandate ${known.id} expired at ${known.expires_at}`);
      }
    }
  }
  return done(ref);
}
