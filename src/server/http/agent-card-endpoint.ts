/**
 * Serves the public AgentCard at `/.well-known/agent-card.json` and the pre-0.3 alias
 * `/.well-known/agent.json` (A2A 1.0 §8.2). The card is chosen by `A2A-Version` (decision 0001):
 * 1.0 clients get the 1.0 card; clients sending no version (0.3, and generic fetchers) get the 0.3
 * card, which also lists `supportedInterfaces` so a 1.0 client can still find its interfaces.
 * Bodies and ETags are computed once; `Last-Modified` is when this card was set; `If-None-Match`,
 * or else `If-Modified-Since`, gets 304 (A2A 1.0 §8.6, RFC 9110 §13.1, §13.2.2; decision 0134).
 * With a signer, each version's JSON is signed as served (A2A 1.0 §8.4: the signature covers the
 * JSON the client canonicalizes, so a 0.3 client and a 1.0 client each verify what they received).
 */
import { A2AError, negotiateVersion, type AgentCard, type ProtocolVersion } from '../../protocol/internal.js';
import { servedCardJson, type CardDecorator, type CardSigner } from '../cards/served-card.js';
import { cacheableJson, etagOf } from './cacheable-json.js';
import { FORWARDING_VARY } from './forwarded.js';
import type { HttpRequest, HttpResponse } from './http-types.js';
import { restErrorResponse } from './rest-binding.js';
import { reportIfInternal, type ErrorReporter } from '../common/error-reporting.js';

/** Paths the card is served at. */
export const AGENT_CARD_PATHS: readonly string[] = [
  '/.well-known/agent-card.json',
  '/.well-known/agent.json',
];

interface Rendered {
  body: string;
  etag: string;
}

export type { CardDecorator, CardSigner } from '../cards/served-card.js';

/** How the card is rendered besides the card itself. */
export interface CardRenderOptions {
  signer?: CardSigner | undefined;
  decorate?: CardDecorator | undefined;
  /** The version served to a request without `A2A-Version` (default 0.3). */
  defaultVersion?: ProtocolVersion | undefined;
  /** `Last-Modified` of the card this one replaces, if that card was ever answered. */
  replacedServedDate?: Date | undefined;
  /** Receives a signer's or decorator's failure, answered 500 (A2AServer `onError`, decision 0144). */
  report?: ErrorReporter | undefined;
}

/** Renders and caches both versions of a card. */
export class AgentCardEndpoint {
  private readonly rendered = new Map<ProtocolVersion, Promise<Rendered>>();
  /** When this card was set, to the second (HTTP dates have no finer resolution). */
  readonly lastModified: Date;
  /** Whether a client may have this card (it was answered at least once). */
  #served = false;
  /**
   * False when the card it replaced was served in the same second: a date cannot tell the two
   * apart, and a later date would be in the future (RFC 9110 §8.8.2.1), so `If-Modified-Since`
   * is not answered with 304 for this card; its ETag still is.
   */
  private readonly datesUsable: boolean;

  constructor(
    private readonly card: AgentCard,
    private readonly maxAgeSeconds: number,
    private readonly options: CardRenderOptions = {},
  ) {
    this.lastModified = new Date(Math.floor(Date.now() / 1000) * 1000);
    this.datesUsable = options.replacedServedDate?.getTime() !== this.lastModified.getTime();
  }

  /**
   * The newest `Last-Modified` a client may hold, for the card that replaces this one: this
   * card's once served, else the one it replaced had (a card rebuilt twice within a second, the
   * middle one never served, must not let a client keep the first).
   */
  get servedDate(): Date | undefined {
    return this.#served ? this.lastModified : this.options.replacedServedDate;
  }

  /** The card JSON for a version, as served. */
  async body(version: ProtocolVersion): Promise<string> {
    return (await this.render(version)).body;
  }

  private render(version: ProtocolVersion): Promise<Rendered> {
    let hit = this.rendered.get(version);
    if (hit === undefined) {
      hit = this.renderNow(version);
      // A failed signing is not cached: the next request tries again.
      hit.catch(() => this.rendered.delete(version));
      this.rendered.set(version, hit);
    }
    return hit;
  }

  private async renderNow(version: ProtocolVersion): Promise<Rendered> {
    const { decorate, signer } = this.options;
    const body = JSON.stringify(await servedCardJson(this.card, version, { decorate, signer }));
    return { body, etag: etagOf(body) };
  }

  /** Answers a GET or HEAD for the card. */
  async handle(request: HttpRequest): Promise<HttpResponse> {
    let version: ProtocolVersion;
    try {
      const requested = request.header('a2a-version') ?? request.query.get('A2A-Version');
      const { defaultVersion } = this.options;
      version =
        defaultVersion !== undefined && (requested ?? '').trim() === ''
          ? defaultVersion
          : negotiateVersion(requested);
    } catch (error) {
      return restErrorResponse(error, '1.0', { request });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return restErrorResponse(
        new A2AError('MethodNotFoundError', `${request.method} is not allowed on the agent card`),
        version,
        { request },
      );
    }
    let rendered: Rendered;
    try {
      rendered = await this.render(version);
    } catch (error) {
      reportIfInternal(error, this.options.report, () => `rendering the A2A ${version} agent card`);
      return restErrorResponse(error, version, { request });
    }
    this.#served = true;
    return cacheableJson(request, rendered.body, {
      etag: rendered.etag,
      lastModified: this.lastModified,
      useModifiedSince: this.datesUsable,
      maxAgeSeconds: this.maxAgeSeconds,
      // Behind a trusted proxy the interfaces follow its forwarding headers (decision 0149).
      vary: request.proxied === undefined ? 'A2A-Version' : `A2A-Version, ${FORWARDING_VARY}`,
    });
  }
}
