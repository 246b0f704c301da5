/**
 * Serves the public AgentCard at `/.well-known/agent-card.json` and the pre-0.3 alias
 * `/.well-known/agent.json` (digest §9.1). The card is chosen by `A2A-Version` (digest §12 item 19):
 * 1.0 clients get the 1.0 card; clients sending no version (0.3, and generic fetchers) get the 0.3
 * card, which also lists `supportedInterfaces` so a 1.0 client can still find its interfaces.
 * Bodies and ETags are computed once; `If-None-Match` gets 304 (A2A 1.0 §8.6, RFC 9110 §13.1.2).
 */
import { createHash } from 'node:crypto';
import { A2AError, negotiateVersion, type AgentCard, type ProtocolVersion } from '../../protocol/index.js';
import { v0_3JsonRpcCodec } from '../../protocol/v0_3/index.js';
import { v1_0Codec } from '../../protocol/v1_0/index.js';
import type { HttpRequest, HttpResponse } from './http-types.js';
import { restErrorResponse } from './rest-binding.js';

/** Paths the card is served at. */
export const AGENT_CARD_PATHS: readonly string[] = [
  '/.well-known/agent-card.json',
  '/.well-known/agent.json',
];

interface Rendered {
  body: string;
  etag: string;
}

/** Renders and caches both versions of a card. */
export class AgentCardEndpoint {
  private readonly rendered = new Map<ProtocolVersion, Rendered>();

  constructor(
    private readonly card: AgentCard,
    private readonly maxAgeSeconds: number,
  ) {}

  /** The card JSON for a version, as served. */
  body(version: ProtocolVersion): string {
    return this.render(version).body;
  }

  private render(version: ProtocolVersion): Rendered {
    let hit = this.rendered.get(version);
    if (hit === undefined) {
      const codec = version === '1.0' ? v1_0Codec : v0_3JsonRpcCodec;
      const body = JSON.stringify(codec.encodeAgentCard(this.card));
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
      hit = { body, etag };
      this.rendered.set(version, hit);
    }
    return hit;
  }

  /** Answers a GET or HEAD for the card. */
  handle(request: HttpRequest): HttpResponse {
    let version: ProtocolVersion;
    try {
      version = negotiateVersion(request.header('a2a-version') ?? request.query.get('A2A-Version'));
    } catch (error) {
      return restErrorResponse(error, '1.0');
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return restErrorResponse(
        new A2AError('MethodNotFoundError', `${request.method} is not allowed on the agent card`),
        version,
      );
    }
    const { body, etag } = this.render(version);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'cache-control': `public, max-age=${this.maxAgeSeconds}`,
      etag,
      vary: 'A2A-Version',
      'access-control-allow-origin': '*',
    };
    const match = request.header('if-none-match');
    if (
      match !== undefined &&
      match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')
    ) {
      return { status: 304, headers, body: '' };
    }
    return { status: 200, headers, body: request.method === 'HEAD' ? '' : body };
  }
}
