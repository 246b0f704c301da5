/**
 * The owner's side of `requiresApproval` (decision 0017), per agent under `/agents/<id>/approvals`:
 *
 * - `GET  approvals[?status=pending|approved|rejected&pageSize=&pageToken=]` — oldest first;
 * - `GET  approvals/<approvalId>` — the record and its audit trail;
 * - `POST approvals/<approvalId>:approve` and `:reject`, body `{"reason": "..."}` (optional).
 *
 * Only the agent's owners may call it: callers authenticated by the host holding the approval
 * scope (`agents:approve`). A host without security serves it on the internal listener only, to
 * its own tools on loopback; the public listener then answers 404.
 */
import { A2AError } from '../protocol/internal.js';
import type { A2AServer, HttpRequest, HttpResponse } from '../server/internal.js';
import { notAllowed, ownerJson, ownerOf, ownerRefusal, type OwnerAccess } from './owner-access.js';

export { APPROVAL_SCOPE } from './owner-access.js';

const STATUSES = new Set(['pending', 'approved', 'rejected']);

/** Answers an approvals request for one agent; `path` is below `/agents/<id>`. */
export async function handleApprovals(
  request: HttpRequest,
  path: string,
  server: A2AServer,
  access: OwnerAccess,
): Promise<HttpResponse> {
  try {
    const by = await ownerOf(request, access, 'Approvals');
    const rest = path.slice('/approvals'.length);
    if (rest === '' || rest === '/') {
      if (request.method !== 'GET') throw notAllowed(request.method);
      const status = request.query.get('status') ?? undefined;
      if (status !== undefined && !STATUSES.has(status)) {
        throw new A2AError(
          'InvalidParamsError',
          `status must be pending, approved or rejected, got "${status}"`,
          {
            violations: [{ field: 'status', description: 'expected pending, approved or rejected' }],
          },
        );
      }
      const pageSize = request.query.get('pageSize');
      const pageToken = request.query.get('pageToken');
      const page = await server.handler.listApprovals({
        ...(status === undefined ? {} : { status: status as 'pending' }),
        ...(pageSize === null ? {} : { pageSize: Number(pageSize) }),
        ...(pageToken === null ? {} : { pageToken }),
      });
      return ownerJson(200, page);
    }
    const match = /^\/([^/:]+)(?::(approve|reject))?$/.exec(rest);
    if (match === null) throw new A2AError('MethodNotFoundError', `No approvals route at ${path}`);
    const id = decodeURIComponent(match[1]!);
    const action = match[2];
    if (action === undefined) {
      if (request.method !== 'GET') throw notAllowed(request.method);
      return ownerJson(200, await server.handler.getApproval(id));
    }
    if (request.method !== 'POST') throw notAllowed(request.method);
    const reason = await readReason(request);
    const outcome = await server.handler.decideApproval(id, {
      approve: action === 'approve',
      by,
      ...(reason === undefined ? {} : { reason }),
    });
    return ownerJson(200, outcome);
  } catch (error) {
    return ownerRefusal(error, server.agentCard);
  }
}

async function readReason(request: HttpRequest): Promise<string | undefined> {
  const text = await request.text();
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new A2AError('JSONParseError', 'The decision body must be JSON, e.g. {"reason": "..."}');
  }
  const reason = (body as { reason?: unknown } | null)?.reason;
  if (reason === undefined) return undefined;
  if (typeof reason !== 'string') {
    throw new A2AError('InvalidParamsError', 'reason must be a string', {
      violations: [{ field: '/reason', description: 'expected a string' }],
    });
  }
  return reason;
}
