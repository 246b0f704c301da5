/**
 * Verifying an evidence chain (decision 0057): numbered from 1 without gaps, each event's own hash
 * (`hashes.event_hash`, see `eventHash`), each link to the event before
 * (`hashes.previous_event_hash`), one mandate throughout. Deleting an event leaves a gap and a
 * broken link; changing one changes its hash, and re-hashing it breaks the next link. Only the last
 * event can be dropped or rewritten unseen by the chain alone, so the head hash is reported for
 * comparison with a copy kept elsewhere.
 */
import { mandateHash } from './canonical-hash.js';
import { eventHash } from './evidence.js';
import type { EvidenceEvent, Mandate } from './mandate-types.js';
import { validateAumpSchema } from './schemas.js';

/** One problem of a chain, at the position (0-based) of the event it was found at. */
export interface ChainProblem {
  index: number;
  /** sequence_gap, chain_broken, event_altered, schema_invalid, mandate_mismatch, mandate_hash_mismatch */
  code: string;
  message: string;
}

/** The outcome of verifying a chain. */
export interface ChainVerification {
  valid: boolean;
  count: number;
  /** The last event's event_hash: anchor it elsewhere to detect a dropped or rewritten last event. */
  head: string | undefined;
  problems: ChainProblem[];
}

/**
 * Verifies a chain as read from the store, in stored order: numbering from 1 without gaps, every
 * event's own hash, every link to the event before, one mandate throughout (and, given the
 * mandate, its id and hash).
 */
export function verifyEvidenceChain(
  events: readonly EvidenceEvent[],
  options: { mandate?: Mandate } = {},
): ChainVerification {
  const problems: ChainProblem[] = [];
  const add = (index: number, code: string, message: string): void => {
    problems.push({ index, code, message });
  };
  const expectedId = options.mandate?.id ?? events[0]?.mandate_ref?.id;
  const expectedHash =
    options.mandate === undefined ? events[0]?.mandate_ref?.hash : mandateHash(options.mandate);
  let previous: string | undefined;
  events.forEach((event, index) => {
    const schema = validateAumpSchema('evidence-event', event);
    if (schema.length > 0) {
      const first = schema[0]!;
      add(index, 'schema_invalid', `event ${index + 1}: ${first.path || '/'} ${first.message}`);
      previous = undefined;
      return;
    }
    if (event.sequence !== index + 1) {
      add(
        index,
        'sequence_gap',
        event.sequence > index + 1
          ? `event ${event.id} has sequence ${event.sequence} at position ${index + 1}: ${event.sequence - index - 1} event(s) before it are missing`
          : `event ${event.id} has sequence ${event.sequence} at position ${index + 1}: numbers repeat`,
      );
    }
    if (event.mandate_ref.id !== expectedId) {
      add(
        index,
        'mandate_mismatch',
        `event ${event.sequence} names mandate ${event.mandate_ref.id}, not ${String(expectedId)}`,
      );
    } else if (event.mandate_ref.hash !== expectedHash) {
      add(
        index,
        'mandate_hash_mismatch',
        `event ${event.sequence} names mandate hash ${event.mandate_ref.hash}, not ${String(expectedHash)}`,
      );
    }
    const own = event.hashes?.event_hash;
    const actual = eventHash(event);
    if (own !== actual) {
      add(
        index,
        'event_altered',
        `event ${event.sequence} (${event.id}) was changed after it was recorded: its event_hash does not match its content`,
      );
    }
    const link = event.hashes?.previous_event_hash;
    if (index === 0 ? link !== undefined && event.sequence === 1 : link !== previous) {
      add(
        index,
        'chain_broken',
        `event ${event.sequence} does not link to the event before it (previous_event_hash ${String(link)}, expected ${String(previous)})`,
      );
    }
    previous = own;
  });
  return {
    valid: problems.length === 0,
    count: events.length,
    head: events.at(-1)?.hashes?.event_hash,
    problems,
  };
}
