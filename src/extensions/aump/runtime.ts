/**
 * The AUMP runtime (the seed's "Python Runtime Helper", in TypeScript): the mandates an agent holds
 * and the ones it knows of its counterparties, revocations, a clock, and the evidence log — with
 * the plain functions bound to them, and the seed's four-step runtime pattern as `send`:
 *
 * 1. evaluate the proposed outbound message as an action under the mandate;
 * 2. only if it is `allowed`, attach the extension-scoped reference (never the mandate);
 * 3. send it (the AUMP interceptor activates the extension) and record the A2A messageId in
 *    evidence;
 * 4. on `requires_escalation` or `denied` send nothing: the caller gets the decision, and the
 *    decision is recorded when the caller names an event type for it.
 */
import { A2AClient, type A2AConnectOptions, type CallOptions } from '../../client/index.js';
import type { Message, SendMessageRequest, SendMessageResponse } from '../../protocol/index.js';
import { createMemoryEvidenceStore, type EvidenceStore } from '../../store/index.js';
import {
  a2aMessage,
  validateA2aMessage,
  type A2aMandateMessage,
  type A2aMessageInput,
  type A2aValidation,
} from './a2a-binding.js';
import { aumpInterceptor } from './client-interceptor.js';
import { judgeAction } from './evaluate-action.js';
import { tracedEvaluation } from './mandate-telemetry.js';
import type { EvidenceInput } from './evidence.js';
import type { ChainVerification } from './evidence-chain.js';
import { EvidenceLog } from './evidence-log.js';
import { validateMandateSemantics } from './mandate.js';
import type {
  ActionEvaluation,
  DownstreamRef,
  EvaluationContext,
  EvidenceActor,
  EvidenceEvent,
  Mandate,
  ProposedAction,
} from './mandate-types.js';
import type { Metadata } from '../../protocol/index.js';

/** Options of `createAumpRuntime`. */
export interface AumpRuntimeOptions {
  /** Mandates the agent acts under (its own principals'); evidence is kept for these. */
  mandates?: Iterable<Mandate>;
  /** Counterparties' mandates: references to them in incoming messages have their hash checked. */
  known?: Iterable<Mandate>;
  /** Mandate ids revoked by their issuers. */
  revoked?: Iterable<string>;
  /** Where evidence chains are kept (default: in memory). The host passes its task store's. */
  evidence?: EvidenceStore;
  /** Who records evidence (default: the runtime). */
  actor?: EvidenceActor;
  /** The clock (default: the current time); fix it for reproducible evaluations. */
  now?: () => Date;
  /** How `send` connects to agents given by URL (network policy, credentials, timeouts). */
  connect?: A2AConnectOptions;
}

/** Something that sends A2A messages: an `A2AClient` built with `aumpInterceptor()`. */
export interface MessageSender {
  sendMessage(request: SendMessageRequest, options?: CallOptions): Promise<SendMessageResponse>;
}

/** One mandated send (`AumpRuntime.send`). */
export interface MandatedSend {
  /** The held mandate the agent acts under. */
  mandateId: string;
  /** What sending this message does, as an action (e.g. `make_offer` with its amount). */
  action: ProposedAction;
  context?: EvaluationContext;
  /** The message to send when allowed; the reference is attached by the runtime. */
  message: Omit<A2aMessageInput, 'evidenceId'>;
  /** Evidence event types: `sent` after a send; `denied` / `escalated` for a decision that stops it. */
  evidence: { sent: string; denied?: string; escalated?: string };
  signal?: AbortSignal;
}

/** What `send` did: nothing (with the decision), or the send and its evidence. */
export type MandatedSendResult =
  | { sent: false; evaluation: ActionEvaluation; evidence: EvidenceEvent | undefined }
  | {
      sent: true;
      evaluation: ActionEvaluation;
      message: Message;
      response: SendMessageResponse;
      evidence: EvidenceEvent | undefined;
      /** Whether the agent echoed the AUMP activation (known when `send` made the client itself). */
      activated?: boolean;
    };

/** A message the runtime refused to send: it would break the binding (e.g. it embeds a mandate). */
export class AumpMessageError extends Error {
  override readonly name = 'AumpMessageError';

  constructor(readonly validation: A2aValidation) {
    super(`AUMP message refused before sending: ${validation.errors.join('; ')}`);
  }
}

/** The message was sent, but its evidence could not be recorded; `response` is the agent's answer. */
export class AumpEvidenceError extends Error {
  override readonly name = 'AumpEvidenceError';

  constructor(
    readonly response: SendMessageResponse,
    cause: unknown,
  ) {
    super(
      `the message was sent, but its evidence was not recorded: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
  }
}

/** Mandates, evidence and the runtime pattern; see the file comment. */
export class AumpRuntime {
  /** The evidence chains (one per held mandate). */
  readonly evidence: EvidenceLog;
  private readonly held = new Map<string, Mandate>();
  private readonly others = new Map<string, Mandate>();
  private readonly revokedIds = new Set<string>();
  private readonly clock: () => Date;
  private readonly connectOptions: A2AConnectOptions;

  constructor(options: AumpRuntimeOptions = {}) {
    for (const mandate of options.mandates ?? []) this.hold(mandate);
    for (const mandate of options.known ?? []) this.know(mandate);
    for (const id of options.revoked ?? []) this.revokedIds.add(id);
    this.clock = options.now ?? (() => new Date());
    this.connectOptions = options.connect ?? {};
    this.evidence = new EvidenceLog(options.evidence ?? createMemoryEvidenceStore(), {
      now: this.clock,
      ...(options.actor === undefined ? {} : { actor: options.actor }),
    });
  }

  /** Adds a mandate the agent acts under. */
  hold(mandate: Mandate): void {
    this.held.set(mandate.id, mandate);
  }

  /** Adds a counterparty's mandate, for checking references to it. */
  know(mandate: Mandate): void {
    this.others.set(mandate.id, mandate);
  }

  /** Marks a mandate revoked: nothing is allowed under it, references to it are refused. */
  revoke(mandateId: string): void {
    this.revokedIds.add(mandateId);
  }

  /** Whether `mandateId` was revoked. */
  isRevoked(mandateId: string): boolean {
    return this.revokedIds.has(mandateId);
  }

  /** A held mandate by id. */
  mandate(mandateId: string): Mandate | undefined {
    return this.held.get(mandateId);
  }

  /** The ids of the held mandates, in the order they were added. */
  get mandateIds(): string[] {
    return [...this.held.keys()];
  }

  /** The runtime's current time. */
  now(): Date {
    return this.clock();
  }

  /**
   * `evaluateAction` under a held mandate at the runtime's time; unknown and revoked mandates deny.
   * One `concord.mandate.evaluate` span with the final decision (decision 0157).
   */
  evaluate(mandateId: string, action: ProposedAction, context: EvaluationContext = {}): ActionEvaluation {
    return tracedEvaluation(() => this.judge(mandateId, action, context));
  }

  private judge(mandateId: string, action: ProposedAction, context: EvaluationContext): ActionEvaluation {
    const mandate = this.held.get(mandateId);
    if (mandate === undefined) {
      return {
        aump: { version: '0.1.0', type: 'action_evaluation_response' },
        mandate_ref: { id: mandateId },
        decision: 'denied',
        reason_codes: ['mandate_not_found'],
        paths: ['$.mandate_ref.id'],
        summary: `The proposed action is denied by mandate policy: mandate_not_found`,
      };
    }
    const evaluation = judgeAction(mandate, action, context, { now: this.clock() });
    if (!this.revokedIds.has(mandateId)) return evaluation;
    const { required_escalation: _none, ...rest } = evaluation;
    const codes = ['mandate_revoked', ...(evaluation.decision === 'denied' ? evaluation.reason_codes : [])];
    return {
      ...rest,
      decision: 'denied',
      reason_codes: codes,
      paths: ['$.id', ...(evaluation.decision === 'denied' ? evaluation.paths : [])],
      summary: `The proposed action is denied by mandate policy: ${codes.join(', ')}`,
    };
  }

  /** `a2aMessage` under a held mandate. */
  a2aMessage(mandateId: string, input: A2aMessageInput): A2aMandateMessage {
    return a2aMessage(this.requireHeld(mandateId), input);
  }

  /** `validateA2aMessage` against every mandate the runtime knows, at its time, strictly. */
  validateA2aMessage(input: unknown, options: { requestMetadata?: Metadata } = {}): A2aValidation {
    return validateA2aMessage(input, {
      mandates: [...this.held.values(), ...this.others.values()],
      now: this.clock(),
      revoked: this.revokedIds,
      strict: true,
      ...(options.requestMetadata === undefined ? {} : { requestMetadata: options.requestMetadata }),
    });
  }

  /** Records an evidence event under a held mandate (evidence.ts, decision 0057). */
  record(mandateId: string, input: EvidenceInput): Promise<EvidenceEvent | undefined> {
    return this.evidence.record(this.requireHeld(mandateId), input);
  }

  /** Verifies the evidence chain of a held mandate. */
  verify(mandateId: string): Promise<ChainVerification> {
    return this.evidence.verify(this.held.get(mandateId) ?? mandateId);
  }

  /** Whether a held mandate can authorise anything now (active, unexpired, not revoked). */
  usable(mandateId: string): boolean {
    const mandate = this.held.get(mandateId);
    return (
      mandate !== undefined &&
      !this.revokedIds.has(mandateId) &&
      validateMandateSemantics(mandate, { now: this.clock() }).valid
    );
  }

  /** The runtime pattern; see the file comment. `target` is an agent URL or a client. */
  async send(target: string | MessageSender, request: MandatedSend): Promise<MandatedSendResult> {
    const { mandateId, action } = request;
    const evaluation = this.evaluate(mandateId, action, request.context);
    if (evaluation.decision !== 'allowed') {
      const type = evaluation.decision === 'denied' ? request.evidence.denied : request.evidence.escalated;
      const evidence =
        type === undefined || !this.held.has(mandateId)
          ? undefined
          : await this.record(mandateId, {
              eventType: type,
              summary: `${action.summary} (${evaluation.decision}: ${evaluation.reason_codes.join(', ')})`,
              result: evaluation.decision,
              action,
              reasonCodes: evaluation.reason_codes,
              paths: evaluation.paths,
              ...(action.downstream_refs === undefined ? {} : { downstreamRefs: action.downstream_refs }),
            });
      return { sent: false, evaluation, evidence };
    }
    const built = this.a2aMessage(mandateId, { role: 'user', ...request.message });
    const local = this.validateA2aMessage(built);
    if (!local.valid) throw new AumpMessageError(local);
    let activated: boolean | undefined;
    const options = request.signal === undefined ? {} : { signal: request.signal };
    let response: SendMessageResponse;
    if (typeof target === 'string') {
      const interceptor = aumpInterceptor({ onResponse: (info) => (activated = info.activated) });
      const client = await A2AClient.connect(target, {
        ...this.connectOptions,
        interceptors: [...(this.connectOptions.interceptors ?? []), interceptor],
        ...options,
      });
      try {
        response = await client.sendMessage({ message: built.message }, options);
      } finally {
        client.close();
      }
    } else {
      response = await target.sendMessage({ message: built.message }, options);
    }
    const task = 'task' in response ? response.task : undefined;
    const messageId = built.message.messageId;
    const refs: DownstreamRef[] = [...(action.downstream_refs ?? []), { protocol: 'a2a', id: messageId }];
    let evidence: EvidenceEvent | undefined;
    try {
      evidence = await this.record(mandateId, {
        eventType: request.evidence.sent,
        summary: action.summary,
        result: 'allowed',
        action,
        downstreamRefs: refs,
        metadata: {
          a2a_message_id: messageId,
          ...(task === undefined ? {} : { a2a_task_id: task.id, a2a_task_state: task.status.state }),
          ...(activated === undefined ? {} : { a2a_extension_activated: activated }),
        },
        transcript: built.message,
      });
    } catch (error) {
      throw new AumpEvidenceError(response, error);
    }
    return {
      sent: true,
      evaluation,
      message: built.message,
      response,
      evidence,
      ...(activated === undefined ? {} : { activated }),
    };
  }

  private requireHeld(mandateId: string): Mandate {
    const mandate = this.held.get(mandateId);
    if (mandate === undefined) {
      throw new Error(
        `AUMP: this runtime holds no mandate ${mandateId} (it holds: ${this.mandateIds.join(', ') || 'none'})`,
      );
    }
    return mandate;
  }
}

/** Creates a runtime; see `AumpRuntimeOptions`. */
export function createAumpRuntime(options: AumpRuntimeOptions = {}): AumpRuntime {
  return new AumpRuntime(options);
}
