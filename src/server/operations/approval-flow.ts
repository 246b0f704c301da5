/**
 * `requiresApproval` (OpenClaw PR #19293 a2a-contracts.md; decision 0017): a message invoking such a contract
 * does not reach the executor. The task is created (or continued) in `auth-required` — the agent
 * needs an authorization that only its owner can give, which is what that state means (A2A 1.0
 * §4.1.3), unlike `input-required`, which asks the *client* for more — and a pending approval is
 * recorded. The owner's decision is persisted first (exactly one decision wins), then acted on:
 * approved, the executor runs on the held message; rejected, the task ends `rejected` with the
 * reason. Both records live in the task store's file, so a pending approval survives a restart.
 */
import { A2AError, type Message, type Task } from '../../protocol/index.js';
import {
  ApprovalConflictError,
  ApprovalNotFoundError,
  type ApprovalRecord,
  type ApprovalStore,
  type PushConfigRecord,
  type TaskScope,
  type TaskStore,
} from '../../store/index.js';
import type { CallContext } from '../call-context.js';
import {
  invocationMetadata,
  type ContractGate,
  type ContractInvocation,
} from '../contracts/contract-gate.js';
import { newId } from '../common/ids.js';
import type { TaskExecution } from '../task-run/task-execution.js';
import type { TaskRunner } from '../task-run/task-runner.js';

/** Metadata key of the approval a task waits for (and, later, how it was decided). */
export const APPROVAL_METADATA_KEY = 'concord/approval';

/** What the flow works with. */
export interface ApprovalFlowDeps {
  store: TaskStore;
  approvals: ApprovalStore;
  runner: TaskRunner;
  contracts: ContractGate | undefined;
}

/** A decision by the owner. */
export interface ApprovalDecision {
  approve: boolean;
  /** Who decided (the authenticated principal). */
  by: string;
  reason?: string;
}

/** Holds a message for approval: records the approval, then the task in auth-required. */
export async function holdForApproval(
  deps: ApprovalFlowDeps,
  hold: {
    taskId: string;
    contextId: string;
    scope: TaskScope;
    message: Message;
    invocation: ContractInvocation;
    stored?: { task: Task; version: number; tenant: string; owner: string };
    /** Streams subscribe here, before the first commit. */
    beforeStart?: (execution: TaskExecution) => void;
    /** Push configs given with the send, created with the hold's commit. */
    pushConfigs?: PushConfigRecord[];
  },
): Promise<TaskExecution> {
  const { invocation } = hold;
  const approval = await deps.approvals.create({
    id: newId(),
    taskId: hold.taskId,
    contextId: hold.contextId,
    tenant: hold.scope.tenant,
    owner: hold.scope.owner,
    contract: invocation.name,
    ...(invocation.correlationId === undefined ? {} : { correlationId: invocation.correlationId }),
    requestedAt: new Date().toISOString(),
  });
  const execution = deps.runner.held({
    taskId: hold.taskId,
    contextId: hold.contextId,
    scope: hold.scope,
    message: hold.message,
    ...(hold.stored === undefined ? {} : { stored: hold.stored }),
    ...(hold.pushConfigs === undefined ? {} : { pushConfigs: hold.pushConfigs }),
    metadata: Object.assign({}, invocationMetadata(invocation), {
      [APPROVAL_METADATA_KEY]: { id: approval.id, status: 'pending' },
    }),
  });
  hold.beforeStart?.(execution);
  execution.forceStatus(
    'TASK_STATE_AUTH_REQUIRED',
    `Contract "${invocation.name}" requires approval by the agent's owner (approval ${approval.id}); ` +
      'the task continues once it is approved.',
  );
  return execution;
}

/** Records the owner's decision and acts on it; resolves with the record and the task after it. */
export async function decideApproval(
  deps: ApprovalFlowDeps,
  id: string,
  decision: ApprovalDecision,
): Promise<{ approval: ApprovalRecord; task: Task | undefined }> {
  let approval: ApprovalRecord;
  try {
    approval = await deps.approvals.decide(id, {
      status: decision.approve ? 'approved' : 'rejected',
      decidedBy: decision.by,
      ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    });
  } catch (error) {
    throw toApprovalError(error, id);
  }
  const scope: TaskScope = { tenant: approval.tenant, owner: approval.owner };
  const stored = await deps.store.get(approval.taskId, scope);
  if (stored === undefined) return { approval, task: undefined };
  const message = lastUserMessage(stored.task);
  let execution: TaskExecution;
  if (decision.approve && message !== undefined) {
    const call: CallContext = {
      version: '1.0',
      tenant: approval.tenant,
      activatedExtensions: [],
      ...(approval.owner === '' ? {} : { user: { name: approval.owner } }),
    };
    const invocation = deps.contracts?.admit(message);
    execution = deps.runner.start({
      taskId: stored.task.id,
      contextId: stored.task.contextId,
      scope,
      message,
      request: { message },
      call,
      stored,
      messageRecorded: true,
      ...(invocation === undefined ? {} : { contract: invocation, contracts: deps.contracts }),
    }).execution;
    await execution.waitFor(() => execution.hasCommitted);
  } else {
    execution = deps.runner.idle(stored, scope);
    const why = decision.reason === undefined ? '' : `: ${decision.reason}`;
    execution.forceStatus('TASK_STATE_REJECTED', `Contract "${approval.contract}" was not approved${why}`);
    await execution.waitFor(() => execution.hasCommitted);
  }
  return { approval, task: await execution.fullTask() };
}

function lastUserMessage(task: Task): Message | undefined {
  const history = task.history ?? [];
  for (let i = history.length - 1; i >= 0; i--) if (history[i]!.role === 'ROLE_USER') return history[i];
  return undefined;
}

function toApprovalError(error: unknown, id: string): unknown {
  if (error instanceof ApprovalNotFoundError) {
    return new A2AError('ApprovalNotFoundError', `No approval ${id}`, { metadata: { approvalId: id } });
  }
  if (error instanceof ApprovalConflictError) {
    return new A2AError('ApprovalAlreadyDecidedError', `Approval ${id} was already ${error.current.status}`, {
      metadata: { approvalId: id, status: error.current.status },
    });
  }
  return error;
}
