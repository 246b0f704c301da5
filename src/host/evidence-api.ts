/**
 * The owner's view of an agent's AUMP evidence (decisions 0057, 0159), under
 * `/agents/<id>/evidence`:
 *
 * - `GET evidence?taskId=<id>` — the chains with an event recorded about that A2A task;
 * - `GET evidence?contextId=<id>` — the same for a context;
 * - `GET evidence?mandateId=<id>` — that mandate's chain.
 *
 * Exactly one filter. The answer is `{chains: [{mandateId, events, verification}]}`: each chain
 * whole, in sequence order, with what verifying it found (numbering, hashes, links, one mandate;
 * `headHash` is the last event's hash, to compare with a copy kept elsewhere). The AUMP extension
 * records the A2A task and context of an event in its metadata (`a2a_task_id`, `a2a_context_id`).
 *
 * The host knows no extension (decision 0054) and may not import one (scripts/boundaries.mjs), so
 * the chains are read from the agent's task store (`store.evidence`) and verified by the agent's
 * extension service that keeps them — the AUMP runtime, found by its `verify(mandateId)`. An agent
 * without both has no evidence to show: 404. Owners only, as the approvals API (owner-access.ts).
 */
import { A2AError } from '../protocol/internal.js';
import type { HttpRequest, HttpResponse } from '../server/internal.js';
import type { MountedAgent } from './mounted-agent.js';
import { notAllowed, ownerJson, ownerOf, ownerRefusal, type OwnerAccess } from './owner-access.js';

const FILTERS = ['taskId', 'contextId', 'mandateId'] as const;

/** What an evidence-keeping extension service offers (the AUMP runtime's `verify`). */
interface ChainVerifier {
  verify(mandateId: string): Promise<{
    valid: boolean;
    head: string | undefined;
    problems: readonly { message: string }[];
  }>;
}

/** One chain as the API answers it (console/src/api/host.ts EvidenceChainView). */
interface ChainView {
  mandateId: string;
  events: Record<string, unknown>[];
  verification: { valid: boolean; problems: string[]; headHash?: string };
}

/** Answers an evidence request for one agent; `path` is below `/agents/<id>`. */
export async function handleEvidence(
  request: HttpRequest,
  path: string,
  agent: MountedAgent,
  access: OwnerAccess,
): Promise<HttpResponse> {
  try {
    await ownerOf(request, access, 'Evidence chains');
    if (path !== '/evidence' && path !== '/evidence/') {
      throw new A2AError('MethodNotFoundError', `No evidence route at ${path}`);
    }
    if (request.method !== 'GET') throw notAllowed(request.method);
    const { field, value } = filterOf(request.query);
    const store = agent.server.store.evidence;
    const verifier = verifierOf(agent);
    if (store === undefined || verifier === undefined) {
      throw new A2AError(
        'MethodNotFoundError',
        `Agent "${agent.definition.id}" keeps no AUMP evidence (it does not enable the aump extension)`,
      );
    }
    const names = field === 'mandateId' ? [value] : await store.chains();
    const chains: ChainView[] = [];
    for (const name of names) {
      const events = (await store.read(name)).map((record) => record.event);
      if (events.length === 0) continue;
      if (field !== 'mandateId' && !events.some((event) => mentions(event, field, value))) continue;
      chains.push({ mandateId: name, events, verification: await verification(verifier, name) });
    }
    return ownerJson(200, { chains });
  } catch (error) {
    return ownerRefusal(error, agent.server.agentCard);
  }
}

/** The one filter of the query; refuses none or several, naming the fields. */
function filterOf(query: URLSearchParams): { field: (typeof FILTERS)[number]; value: string } {
  const given = FILTERS.filter((name) => query.has(name));
  if (given.length !== 1) {
    const message =
      given.length === 0
        ? 'one of taskId, contextId or mandateId is required'
        : `give only one of taskId, contextId or mandateId, not ${given.join(' and ')}`;
    throw new A2AError('InvalidParamsError', message, {
      violations: (given.length === 0 ? FILTERS : given).map((field) => ({
        field,
        description: 'exactly one of taskId, contextId or mandateId',
      })),
    });
  }
  const field = given[0]!;
  const value = query.get(field)!;
  if (value === '') {
    throw new A2AError('InvalidParamsError', `${field} must not be empty`, {
      violations: [{ field, description: 'expected a non-empty string' }],
    });
  }
  return { field, value };
}

/** Whether an event was recorded about the task or context (AUMP event metadata). */
function mentions(event: Record<string, unknown>, field: 'taskId' | 'contextId', value: string): boolean {
  const metadata = event.metadata;
  if (typeof metadata !== 'object' || metadata === null) return false;
  const key = field === 'taskId' ? 'a2a_task_id' : 'a2a_context_id';
  return (metadata as Record<string, unknown>)[key] === value;
}

function verifierOf(agent: MountedAgent): ChainVerifier | undefined {
  for (const extension of agent.extensions) {
    const service = extension.service as Partial<ChainVerifier> | null | undefined;
    if (typeof service === 'object' && service !== null && typeof service.verify === 'function') {
      return service as ChainVerifier;
    }
  }
  return undefined;
}

async function verification(verifier: ChainVerifier, mandateId: string): Promise<ChainView['verification']> {
  const found = await verifier.verify(mandateId);
  return {
    valid: found.valid,
    problems: found.problems.map((problem) => problem.message),
    ...(found.head === undefined ? {} : { headHash: found.head }),
  };
}
