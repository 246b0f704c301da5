/**
 * Fetches an agent's published contracts from its stable URL (decision 0018:
 * `GET <agent base>/contracts`), through the client's pipeline (SSRF guard, interceptors,
 * timeout). The agent base is the directory holding the card's `.well-known/`, else the
 * interface URL. No contracts document (404/410) means the agent publishes none.
 */
import type { ResolvedCard } from '../card/card-resolver.js';
import type { CallControl, HttpPipeline } from '../http/client-http.js';
import { AgentContracts, agentContractsOfDocument } from './agent-contracts.js';
import { parseJsonBody, restError, unexpectedStatus } from '../transports/wire-errors.js';

/** Where an agent's `/contracts` document lives. */
export function contractsUrlOf(resolved: ResolvedCard | undefined, interfaceUrl: string): URL {
  if (resolved !== undefined) {
    const cardUrl = new URL(resolved.url);
    if (cardUrl.pathname.includes('/.well-known/')) return new URL('../contracts', cardUrl);
  }
  const base = new URL(interfaceUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return new URL('contracts', base);
}

/** GETs and reads the contracts document at `url`. */
export async function fetchContractsDocument(
  http: HttpPipeline,
  url: URL,
  agentName: string,
  control: CallControl,
): Promise<AgentContracts> {
  const answer = await http.read(
    'getContracts',
    { method: 'GET', url, headers: { accept: 'application/json' } },
    control,
  );
  if (answer.status === 404 || answer.status === 410) {
    return new AgentContracts(agentName, 'none', { allowFreeform: true, contracts: [] });
  }
  const body = parseJsonBody(answer.text, answer.status, answer.url);
  if (answer.status !== 200)
    throw restError(answer.status, body) ?? unexpectedStatus(answer.status, answer.url);
  return agentContractsOfDocument(body, agentName, answer.url);
}
