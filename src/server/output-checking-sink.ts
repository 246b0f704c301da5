/**
 * The reply side of a contract (issue 4 "Output contracts"): every artifact and direct reply an
 * executor produces under a contract with an output schema is checked before it is recorded, so a
 * reply that misses the schema never leaves the server as if it were valid. Under the `fail`
 * policy the offending update is refused and the task fails with the violations; under `warn` it
 * goes through flagged with them (`concord/contract/outputViolations` metadata).
 */
import type { Message, StreamResponse } from '../protocol/index.js';
import {
  checkReplyParts,
  CONTRACT_METADATA_KEY,
  flagArtifact,
  outputError,
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
  ) {}

  get taskId(): string {
    return this.execution.taskId;
  }

  get contextId(): string {
    return this.execution.contextId;
  }

  emit(event: StreamResponse): void {
    // Appended chunks are partial values; the whole artifact is checked when it is sent whole.
    if (!('artifactUpdate' in event) || event.artifactUpdate.append === true) {
      this.execution.emit(event);
      return;
    }
    const { artifact } = event.artifactUpdate;
    const violations = checkReplyParts(this.gate, this.contract.name, artifact.parts);
    if (violations.length === 0) {
      this.execution.emit(event);
    } else if (this.gate.outputPolicy === 'warn') {
      this.execution.emit({
        artifactUpdate: { ...event.artifactUpdate, artifact: flagArtifact(artifact, violations) },
      });
    } else {
      this.refuse(violations);
    }
  }

  reply(message: Message): void {
    const violations = checkReplyParts(this.gate, this.contract.name, message.parts);
    const tagged: Message = {
      ...message,
      metadata: {
        ...message.metadata,
        [CONTRACT_METADATA_KEY]: {
          name: this.contract.name,
          ...(this.contract.warnings.length > 0 ? { warnings: this.contract.warnings } : {}),
          ...(violations.length > 0 ? { outputViolations: violations } : {}),
        },
      },
    };
    if (violations.length > 0 && this.gate.outputPolicy !== 'warn') this.refuse(violations);
    this.execution.reply(tagged);
  }

  private refuse(violations: Parameters<typeof outputError>[1]): never {
    const error = outputError(this.contract.name, violations);
    // The task fails with the reason; the executor's call throws so it stops producing.
    this.execution.forceStatus('TASK_STATE_FAILED', error.message);
    throw error;
  }
}
