/**
 * The evidence log: AUMP evidence events kept in an EvidenceStore (the host's task store: SQLite by
 * default), one chain per mandate id. Recording checks the mandate's evidence policy first
 * (evidence.ts), then builds the next event of the chain from the stored last one, checks it
 * against the suite's schema and semantic rules, and appends it; when another writer took the
 * number meanwhile (another process on the same file), it rebuilds on the new last event.
 */
import { randomUUID } from 'node:crypto';
import { EvidenceSequenceError, type EvidenceStore } from '../../store/index.js';
import {
  buildEvidenceEvent,
  checkEvidencePolicy,
  validateEvidenceEvent,
  EvidencePolicyError,
  type EvidenceInput,
} from './evidence.js';
import { verifyEvidenceChain, type ChainVerification } from './evidence-chain.js';
import type { EvidenceActor, EvidenceEvent, Mandate } from './mandate-types.js';

/** Options of an EvidenceLog. */
export interface EvidenceLogOptions {
  /** Who records, when an input names nobody (default: the runtime). */
  actor?: EvidenceActor;
  /** The clock for `created_at` (default: the current time). */
  now?: () => Date;
}

/** Appends to a chain this many times before giving up on a contended chain. */
const ATTEMPTS = 8;

/** Records and reads AUMP evidence chains; see the file comment. */
export class EvidenceLog {
  private readonly actor: EvidenceActor;
  private readonly now: () => Date;

  constructor(
    readonly store: EvidenceStore,
    options: EvidenceLogOptions = {},
  ) {
    this.actor = options.actor ?? { role: 'runtime', id: 'concord-aump' };
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Records an event under `mandate`. Throws EvidencePolicyError when the policy forbids it (the
   * event type is not required, private fields under a policy that keeps none); resolves with
   * undefined, storing nothing, when the mandate's retention is `none`.
   */
  async record(mandate: Mandate, input: EvidenceInput): Promise<EvidenceEvent | undefined> {
    checkEvidencePolicy(mandate, input);
    if (mandate.evidence.retention === 'none') return undefined;
    for (let attempt = 1; ; attempt++) {
      const last = await this.store.last(mandate.id);
      const previous = last?.event as EvidenceEvent | undefined;
      const createdAt = this.now();
      const event = buildEvidenceEvent(mandate, input, {
        id: `aump_ev_${randomUUID().replace(/-/g, '')}`,
        sequence: (last?.sequence ?? 0) + 1,
        createdAt,
        previousHash: previous?.hashes?.event_hash,
        actor: this.actor,
      });
      const check = validateEvidenceEvent(mandate, event, { now: createdAt, mandateState: false });
      if (!check.valid) {
        throw new EvidencePolicyError(
          check.reason_codes[0]!,
          `evidence event refused: ${check.reason_codes.map((code, i) => `${code} at ${check.paths[i]}`).join('; ')}`,
        );
      }
      try {
        await this.store.append({
          chain: mandate.id,
          sequence: event.sequence,
          event: event as unknown as Record<string, unknown>,
          recordedAt: event.created_at,
        });
        return event;
      } catch (error) {
        if (!(error instanceof EvidenceSequenceError) || attempt >= ATTEMPTS) throw error;
      }
    }
  }

  /** The chain of `mandateId`, oldest first. */
  async read(mandateId: string): Promise<EvidenceEvent[]> {
    return (await this.store.read(mandateId)).map((record) => record.event as unknown as EvidenceEvent);
  }

  /** Verifies the stored chain of `mandate` (or of a mandate id, without the document). */
  async verify(mandate: Mandate | string): Promise<ChainVerification> {
    const id = typeof mandate === 'string' ? mandate : mandate.id;
    const events = await this.read(id);
    return verifyEvidenceChain(events, typeof mandate === 'string' ? {} : { mandate });
  }
}
