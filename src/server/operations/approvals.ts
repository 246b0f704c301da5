/**
 * The approval operations of `requiresApproval` contracts (decision 0017): list the approvals,
 * read one with its audit trail, record the owner's decision. Only on a store that keeps them.
 */
import { A2AError } from '../../protocol/index.js';
import type { ApprovalEvent, ApprovalPage, ApprovalQuery, ApprovalRecord } from '../../store/index.js';
import { decideApproval as decide, type ApprovalDecision, type ApprovalFlowDeps } from './approval-flow.js';
import type { HandlerContext } from './handler-context.js';

/** Approvals, oldest first. */
export async function listApprovals(context: HandlerContext, query: ApprovalQuery): Promise<ApprovalPage> {
  return approvalDeps(context).approvals.list(query);
}

/** One approval and its audit trail. */
export async function getApproval(
  context: HandlerContext,
  id: string,
): Promise<{ approval: ApprovalRecord; history: ApprovalEvent[] }> {
  const { approvals } = approvalDeps(context);
  const approval = await approvals.get(id);
  if (approval === undefined) {
    throw new A2AError('ApprovalNotFoundError', `No approval ${id}`, { metadata: { approvalId: id } });
  }
  return { approval, history: await approvals.history(id) };
}

/** The owner's decision on an approval; an approved task runs, a rejected one ends rejected. */
export function decideApproval(
  context: HandlerContext,
  id: string,
  decision: ApprovalDecision,
): ReturnType<typeof decide> {
  return decide(approvalDeps(context), id, decision);
}

/** What the approval flow works with; UnsupportedOperation on a store that keeps no approvals. */
export function approvalDeps(context: HandlerContext): ApprovalFlowDeps {
  const { store, runner, contracts } = context;
  const approvals = store.approvals;
  if (approvals === undefined) {
    throw new A2AError('UnsupportedOperationError', "This server's task store keeps no approvals");
  }
  return { store, approvals, runner, contracts };
}
