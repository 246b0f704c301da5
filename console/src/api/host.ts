/**
 * The host's own APIs the console reads (decision 0159): the agent listing, each agent's
 * contracts, the owner APIs (approvals, push deliveries, AUMP evidence) and the console's session
 * routes. Types describe the JSON as the host sends it; type-only imports keep them one with the
 * server's.
 */
import type { ApprovalEvent, ApprovalRecord } from '../../../src/store/approval-store';
import type { PushDeadLetterView, PushDeliveryView } from '../../../src/store/push-store';
import type { NamedContractSpec } from '../../../src/contracts/contract-types';
import { agentBase } from './a2a';
import { callJson } from './http';
import type { ConsoleScheme } from './session';

export type { ApprovalEvent, ApprovalRecord, NamedContractSpec, PushDeadLetterView, PushDeliveryView };

/** One agent of `GET /agents`. */
export interface ListedAgent {
  id: string;
  name: string;
  description: string;
  version: string;
  tags: string[];
  url: string;
  agentCardUrl: string;
}

export async function listAgents(): Promise<ListedAgent[]> {
  return (await callJson<{ agents: ListedAgent[] }>('../agents')).agents;
}

/** `GET /agents/<id>/contracts`. */
export interface PublishedContracts {
  agentId: string;
  allowFreeform: boolean;
  contracts: NamedContractSpec[];
}

export function getContracts(id: string): Promise<PublishedContracts> {
  return callJson(`${agentBase(id)}contracts`);
}

/** `GET /console/api/session`. */
export interface ConsoleSession {
  listener: 'public' | 'internal';
  principal: string | null;
  scopes: string[];
  secured: boolean;
  traceUrl: string | null;
}

export function getSession(): Promise<ConsoleSession> {
  return callJson('api/session');
}

export async function getSchemes(): Promise<ConsoleScheme[]> {
  return (await callJson<{ schemes: ConsoleScheme[] }>('api/schemes')).schemes;
}

/** The trace id of a task's first traced call, or undefined when none is known. */
export async function getTraceId(agent: string, task: string): Promise<string | undefined> {
  const query = new URLSearchParams({ agent, task });
  return (await callJson<{ traceId: string | null }>(`api/traces?${query.toString()}`)).traceId ?? undefined;
}

// Approvals: `/agents/<id>/approvals` (decision 0017).

export function listApprovals(
  id: string,
  query: { status?: 'pending' | 'approved' | 'rejected'; pageToken?: string } = {},
): Promise<{ approvals: ApprovalRecord[]; nextPageToken: string }> {
  const params = new URLSearchParams(query as Record<string, string>).toString();
  return callJson(`${agentBase(id)}approvals${params === '' ? '' : `?${params}`}`);
}

export function getApproval(
  id: string,
  approvalId: string,
): Promise<{ approval: ApprovalRecord; history: ApprovalEvent[] }> {
  return callJson(`${agentBase(id)}approvals/${encodeURIComponent(approvalId)}`);
}

export function decideApproval(
  id: string,
  approvalId: string,
  approve: boolean,
  reason: string,
): Promise<unknown> {
  return callJson(
    `${agentBase(id)}approvals/${encodeURIComponent(approvalId)}:${approve ? 'approve' : 'reject'}`,
    {
      method: 'POST',
      json: reason.trim() === '' ? {} : { reason },
    },
  );
}

// Push deliveries: `/agents/<id>/push/...` (decision 0159).

export async function listDeliveries(id: string, taskId: string): Promise<PushDeliveryView[]> {
  const query = new URLSearchParams({ taskId }).toString();
  return (await callJson<{ deliveries: PushDeliveryView[] }>(`${agentBase(id)}push/deliveries?${query}`))
    .deliveries;
}

export function listDeadLetters(
  id: string,
  query: { taskId?: string; pageToken?: string } = {},
): Promise<{ deadLetters: PushDeadLetterView[]; nextPageToken: string }> {
  const params = new URLSearchParams(query as Record<string, string>).toString();
  return callJson(`${agentBase(id)}push/dead-letters${params === '' ? '' : `?${params}`}`);
}

export function requeueDeadLetter(id: string, deadLetterId: number): Promise<{ requeued: boolean }> {
  return callJson(`${agentBase(id)}push/dead-letters/${deadLetterId}:requeue`, { method: 'POST', json: {} });
}

// AUMP evidence: `/agents/<id>/evidence` (decisions 0057, 0159).

/** One mandate's evidence chain with what verifying it found. */
export interface EvidenceChainView {
  mandateId: string;
  /** The chain's events in order (AUMP evidence_event objects). */
  events: Record<string, unknown>[];
  verification: { valid: boolean; problems: string[]; headHash?: string };
}

export async function getEvidence(
  id: string,
  filter: { taskId?: string; contextId?: string },
): Promise<EvidenceChainView[]> {
  const params = new URLSearchParams(filter as Record<string, string>).toString();
  return (await callJson<{ chains: EvidenceChainView[] }>(`${agentBase(id)}evidence?${params}`)).chains;
}
