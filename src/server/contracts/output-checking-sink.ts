/**
 * The reply side of a contract (decision 0030): every artifact and direct reply an
 * executor produces under a contract with an output schema is checked before it is recorded, so a
 * reply that misses the schema never leaves the server as if it were valid. Under the `fail`
 * policy the offending update is refused and the task fails with the violations; under `warn` it
 * goes through flagged with them (`concord/contract/outputViolations` metadata). A streamed
 * artifact is checked as a whole at its last chunk (its earlier chunks are already out, so under
 * `fail` the task then fails; under `warn` the last chunk carries the flag). The policy is the
 * contract's own, else the agent's (decision 0030). A direct reply also carries the contract's
 * name and deprecation warnings, with or without an output schema to check.
 */
import type { Message, Part, StreamResponse, TaskArtifactUpdateEvent } from '../../protocol/index.js';
import {
  checkReplyParts,
  CONTRACT_METADATA_KEY,
  flagArtifact,
  invocationMetadata,
  outputError,
  outputPolicyFor,
  type ContractGate,
  type ContractInvocation,
} from './contract-gate.js';
import type { TaskExecution } from '../task-run/task-execution.js';
import type { TaskEventSink } from '../task-run/task-updater.js';

/** A TaskEventSink in front of an execution that checks replies; see the file comment. */
export class OutputCheckingSink implements TaskEventSink {
  constructor(
    private readonly execution: TaskExecution,
    private readonly gate: ContractGate,
    private readonly contract: ContractInvocation,
  ) {
    this.checks = contract.outputSchema !== undefined;
    this.warnOnly = outputPolicyFor(gate, contract.name) === 'warn';
  }

  /** False when the contract declares no output schema: replies are only tagged. */
  private readonly checks: boolean;
  /** Streamed artifacts not yet complete, by id: their parts so far. */
  private readonly streamed = new Map<string, Part[]>();
  private readonly warnOnly: boolean;

  get taskId(): string {
    return this.execution.taskId;
  }

  get contextId(): string {
    return this.execution.contextId;
  }

  emit(event: StreamResponse): void {
    if (!this.checks || !('artifactUpdate' in event)) {
      this.execution.emit(event);
      return;
    }
    const update = event.artifactUpdate;
    const { artifact } = update;
    // A streamed artifact (a model's reply, A2A 1.0 §4.2.2 append / lastChunk) is a partial value
    // until its last chunk: its chunks go out as they come, and the whole is checked at the end.
    if (update.append === true || update.lastChunk === false) {
      const whole = this.accumulate(artifact.artifactId, artifact.parts, update.append === true);
      if (update.lastChunk !== true) {
        this.execution.emit(event);
        return;
      }
      this.streamed.delete(artifact.artifactId);
      this.check(event, whole);
      return;
    }
    this.check(event, artifact.parts);
  }

  /** Emits `event` if `parts` (its artifact's whole content) satisfy the output schema. */
  private check(event: { artifactUpdate: TaskArtifactUpdateEvent }, parts: readonly Part[]): void {
    const { artifact } = event.artifactUpdate;
    const violations = checkReplyParts(this.gate, this.contract.name, parts);
    if (violations.length === 0) {
      this.execution.emit(event);
    } else if (this.warnOnly) {
      this.execution.emit({
        artifactUpdate: Object.assign({}, event.artifactUpdate, {
          artifact: flagArtifact(artifact, violations),
        }),
      });
    } else {
      this.refuse(violations);
    }
  }

  /** The parts of a streamed artifact so far; text chunks are joined to the text before them. */
  private accumulate(artifactId: string, parts: readonly Part[], append: boolean): Part[] {
    const whole = append ? (this.streamed.get(artifactId) ?? []) : [];
    for (const part of parts) {
      const last = whole[whole.length - 1];
      if (part.text !== undefined && last?.text !== undefined) {
        whole[whole.length - 1] = Object.assign({}, last, { text: last.text + part.text });
      } else whole.push({ ...part });
    }
    this.streamed.set(artifactId, whole);
    return whole;
  }

  reply(message: Message): void {
    const violations = this.checks ? checkReplyParts(this.gate, this.contract.name, message.parts) : [];
    const tagged: Message = Object.assign({}, message, {
      // eslint-disable-next-line no-restricted-syntax -- open-ended metadata: a spread keeps a `__proto__` key plain data, where Object.assign would run its setter
      metadata: {
        ...message.metadata,
        // The same entry a task carries (name, version, correlation id, warnings), plus violations.
        [CONTRACT_METADATA_KEY]: Object.assign(
          {},
          invocationMetadata(this.contract)[CONTRACT_METADATA_KEY] as Record<string, unknown>,
          violations.length > 0 ? { outputViolations: violations } : {},
        ),
      },
    });
    if (violations.length > 0 && !this.warnOnly) this.refuse(violations);
    this.execution.reply(tagged);
  }

  private refuse(violations: Parameters<typeof outputError>[1]): never {
    const error = outputError(this.contract.name, violations);
    // The task fails with the reason; the executor's call throws so it stops producing.
    this.execution.forceStatus('TASK_STATE_FAILED', error.message);
    throw error;
  }
}
