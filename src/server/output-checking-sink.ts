/**
 * The reply side of a contract (issue 4 "Output contracts"): every artifact and direct reply an
 * executor produces under a contract with an output schema is checked before it is recorded, so a
 * reply that misses the schema never leaves the server as if it were valid. Under the `fail`
 * policy the offending update is refused and the task fails with the violations; under `warn` it
 * goes through flagged with them (`concord/contract/outputViolations` metadata). The policy is the
 * contract's own, else the agent's (decision 0030). A direct reply also carries the contract's
 * name and deprecation warnings, with or without an output schema to check.
 */
import type { Message, StreamResponse } from '../protocol/index.js';
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
import type { TaskExecution } from './task-execution.js';
import type { TaskEventSink } from './task-updater.js';

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
  private readonly warnOnly: boolean;

  get taskId(): string {
    return this.execution.taskId;
  }

  get contextId(): string {
    return this.execution.contextId;
  }

  emit(event: StreamResponse): void {
    // Appended chunks are partial values; the whole artifact is checked when it is sent whole.
    if (!this.checks || !('artifactUpdate' in event) || event.artifactUpdate.append === true) {
      this.execution.emit(event);
      return;
    }
    const { artifact } = event.artifactUpdate;
    const violations = checkReplyParts(this.gate, this.contract.name, artifact.parts);
    if (violations.length === 0) {
      this.execution.emit(event);
    } else if (this.warnOnly) {
      this.execution.emit({
        artifactUpdate: { ...event.artifactUpdate, artifact: flagArtifact(artifact, violations) },
      });
    } else {
      this.refuse(violations);
    }
  }

  reply(message: Message): void {
    const violations = this.checks ? checkReplyParts(this.gate, this.contract.name, message.parts) : [];
    const tagged: Message = {
      ...message,
      metadata: {
        ...message.metadata,
        // The same entry a task carries (name, version, correlation id, warnings), plus violations.
        [CONTRACT_METADATA_KEY]: {
          ...(invocationMetadata(this.contract)[CONTRACT_METADATA_KEY] as Record<string, unknown>),
          ...(violations.length > 0 ? { outputViolations: violations } : {}),
        },
      },
    };
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
