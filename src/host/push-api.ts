/** Placeholder until the Push owner API lands in this change series (issue 26, decision 0159). */
import { A2AError, toRestErrorBody } from '../protocol/internal.js';
import type { HttpRequest, HttpResponse } from '../server/internal.js';
import type { MountedAgent } from './mounted-agent.js';
import type { OwnerAccess } from './owner-access.js';

export async function handlePushDeliveries(
  _request: HttpRequest,
  path: string,
  _agent: MountedAgent,
  _access: OwnerAccess,
): Promise<HttpResponse> {
  const error = new A2AError('MethodNotFoundError', `No route at ${path}`);
  return {
    status: 404,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(toRestErrorBody(error)),
  };
}
