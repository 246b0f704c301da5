/**
 * Contract discovery (decision 0018). Each agent with contracts publishes them:
 *
 * - in its card: one skill per contract (built by the card layer) and the extension
 *   `urn:concord:a2a-contracts:v1`, whose params hold every contract with its schemas, so a client
 *   holding only the (signed) card can validate before sending;
 * - at stable URLs: `GET /agents/<id>/contracts` (all, in declaration order) and
 *   `GET /agents/<id>/contracts/<name>` (one), cacheable with ETag.
 */
import type { AgentDefinition } from '../card/index.js';
import { CONTRACTS_EXTENSION_URI, publishContracts, type NamedContractSpec } from '../contracts/internal.js';
import { A2AError, toRestErrorBody, type AgentExtension } from '../protocol/internal.js';
import { cacheableJson, type HttpRequest, type HttpResponse } from '../server/internal.js';

/** The card extension that carries an agent's contracts (defined by the contracts layer). */
export { CONTRACTS_EXTENSION_URI };

/** The published form of an agent's contracts (only the published fields; decision 0018). */
export function publishedContracts(definition: AgentDefinition): {
  agentId: string;
  allowFreeform: boolean;
  contracts: NamedContractSpec[];
} {
  return { agentId: definition.id, ...publishContracts(definition.a2a) };
}

/** The card extension of an agent with contracts (undefined without any). */
export function contractsExtension(definition: AgentDefinition): AgentExtension | undefined {
  if (Object.keys(definition.a2a.contracts).length === 0) return undefined;
  const published = publishedContracts(definition);
  return {
    uri: CONTRACTS_EXTENSION_URI,
    description:
      'Typed message contracts: send {"_a2a": true, "contract", "payload", "correlationId"} as a data part; ' +
      'payloads are validated against each contract input schema before delivery.',
    required: false,
    params: {
      allowFreeform: published.allowFreeform,
      contracts: published.contracts as unknown as Record<string, unknown>[],
    },
  };
}

/** Answers `/contracts` and `/contracts/<name>` below an agent. */
export function handleContracts(
  request: HttpRequest,
  path: string,
  definition: AgentDefinition,
): HttpResponse {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return error(new A2AError('MethodNotFoundError', `${request.method} is not allowed on contracts`));
  }
  const published = publishedContracts(definition);
  const rest = path.slice('/contracts'.length);
  if (rest === '' || rest === '/') {
    return cacheableJson(request, JSON.stringify(published), { maxAgeSeconds: 300 });
  }
  const name = decodeURIComponent(rest.slice(1));
  const contract = published.contracts.find((c) => c.name === name);
  if (contract === undefined) {
    const available = published.contracts.map((c) => String(c.name)).join(', ') || 'none';
    return error(
      new A2AError(
        'MethodNotFoundError',
        `Agent "${definition.id}" has no contract "${name}". Available: ${available}`,
      ),
    );
  }
  return cacheableJson(request, JSON.stringify(contract), { maxAgeSeconds: 300 });
}

function error(a2a: A2AError): HttpResponse {
  return {
    status: a2a.entry.httpStatus,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(toRestErrorBody(a2a)),
  };
}
