/**
 * A send's admission and start (A2A 1.0 §3.4): the protocol checks (role, terminal task, context,
 * media types), the contract gate, the host's `admitMessage`, the extensions, and then either a
 * hold for the owner's approval (decision 0017) or a run of the executor. Nothing is created or
 * changed for a refused message: every check runs before the task is.
 */
import {
  A2AError,
  invalidParams,
  isTerminalState,
  type Message,
  type SendMessageRequest,
} from '../../protocol/internal.js';
import type { StoredTask } from '../../store/index.js';
import type { CallContext } from '../call-context.js';
import { newId } from '../common/ids.js';
import { checkSendMediaTypes } from '../modes/input-modes.js';
import { inlineConfig } from '../push/push-operations.js';
import type { AcceptedSend } from '../server-extension.js';
import type { TaskExecution } from '../task-run/task-execution.js';
import type { StartOptions } from '../task-run/task-runner.js';
import { terminalTaskError } from '../task-run/task-state-machine.js';
import { admitTraced } from '../contracts/contract-gate.js';
import { holdForApproval } from './approval-flow.js';
import { approvalDeps } from './approvals.js';
import { scopeOf, type HandlerContext } from './handler-context.js';
import { requirePush } from './push-configs.js';

/** Validates a send and starts the executor: new task, or follow-up (A2A 1.0 §3.4). */
export async function startRun(
  context: HandlerContext,
  request: SendMessageRequest,
  call: CallContext,
  beforeStart?: (execution: TaskExecution) => void,
  idempotencyKey?: string,
): Promise<TaskExecution> {
  const incoming = request.message;
  if (incoming.role !== 'ROLE_USER')
    throw invalidParams('/message/role', 'a client message must have the user role');
  const push =
    request.configuration?.taskPushNotificationConfig === undefined ? undefined : requirePush(context);
  checkSendMediaTypes(request, context.card);
  const scope = scopeOf(call);
  let stored: StoredTask | undefined;
  let taskId: string;
  let contextId: string;
  if (incoming.taskId !== undefined && incoming.taskId !== '') {
    stored = await context.load(incoming.taskId, call);
    const state = stored.task.status.state;
    if (isTerminalState(state)) throw terminalTaskError(stored.task, call);
    if (
      incoming.contextId !== undefined &&
      incoming.contextId !== '' &&
      incoming.contextId !== stored.task.contextId
    ) {
      throw invalidParams(
        '/message/contextId',
        `does not match the context ${stored.task.contextId} of task ${stored.task.id}`,
      );
    }
    taskId = stored.task.id;
    contextId = stored.task.contextId;
  } else {
    taskId = newId();
    contextId = incoming.contextId !== undefined && incoming.contextId !== '' ? incoming.contextId : newId();
  }
  // The contract gate first (decision 0016, the contracts document's "Validation behavior"), then the host's checks.
  const invocation =
    context.contracts === undefined ? undefined : admitTraced(context.contracts, incoming, call.trace);
  if (invocation?.requiresApproval === true && context.store.approvals === undefined) {
    throw new A2AError(
      'UnsupportedOperationError',
      `Contract "${invocation.name}" requires approval by the agent's owner, and this server's store keeps no approvals`,
      { metadata: { contract: invocation.name } },
    );
  }
  if (context.admitMessage !== undefined) await context.admitMessage(request, call, stored?.task);
  const pushConfigs =
    push === undefined
      ? undefined
      : await inlineConfig(
          push,
          request,
          { taskId, tenant: stored?.tenant ?? scope.tenant, existing: stored !== undefined },
          call,
        );
  const message: Message =
    incoming.taskId === taskId && incoming.contextId === contextId
      ? incoming
      : Object.assign({}, incoming, { taskId, contextId });
  if (context.extensions.length > 0) {
    await runExtensions(context, { request, call, task: stored?.task, message, taskId, contextId });
  }
  if (invocation?.requiresApproval === true) {
    return holdForApproval(approvalDeps(context), {
      taskId,
      contextId,
      scope,
      message,
      invocation,
      ...(stored === undefined ? {} : { stored }),
      ...(beforeStart === undefined ? {} : { beforeStart }),
      ...(pushConfigs === undefined ? {} : { pushConfigs }),
    });
  }
  // Optional members set one by one: conditional spreads would build throwaway objects per send.
  const options: StartOptions = { taskId, contextId, scope, message, request, call };
  if (idempotencyKey !== undefined) options.idempotencyKey = idempotencyKey;
  if (stored !== undefined) options.stored = stored;
  if (beforeStart !== undefined) options.beforeStart = beforeStart;
  if (invocation !== undefined) {
    options.contract = invocation;
    options.contracts = context.contracts;
  }
  if (pushConfigs !== undefined) options.pushConfigs = pushConfigs;
  return context.runner.start(options).execution;
}

/**
 * Every extension's `admit`, then (all having admitted) every `accepted`: an extension records a
 * send only once no other check can still refuse it (decision 0054).
 */
async function runExtensions(
  context: HandlerContext,
  accepted: Omit<AcceptedSend, 'activated'>,
): Promise<void> {
  const sends = context.extensions.map((extension) => ({
    extension,
    send: Object.assign({}, accepted, {
      activated: accepted.call.activatedExtensions.includes(extension.declaration.uri),
    }),
  }));
  for (const { extension, send } of sends) {
    const { message: _m, taskId: _t, contextId: _c, ...checked } = send;
    await extension.admit?.(checked);
  }
  for (const { extension, send } of sends) await extension.accepted?.(send);
}
