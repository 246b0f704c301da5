/**
 * An A2A server's cards as served at one base URL (decision 0149): the public card endpoint (both
 * versions), the authenticated extended card in each wire form (encoded, decorated, then signed
 * like the public card: A2A 1.0 §8.4 covers "every card"), and the documents built from the card.
 * Everything is built on first use and kept until the card, the base URL or the gRPC target
 * changes. A server has its own base URL's view and, behind a trusted proxy, one per forwarded
 * base URL, a few at most (the least recently used is dropped): forwarding headers come from the
 * network, so they must not be able to grow memory without bound.
 */
import type { AgentCard, ProtocolVersion } from '../../protocol/index.js';
import type { ErrorReporter } from '../common/error-reporting.js';
import { AgentCardEndpoint } from '../http/agent-card-endpoint.js';
import type { HttpRequest } from '../http/http-types.js';
import {
  servedCard,
  servedCardJson,
  type AgentCardInput,
  type CardDecorator,
  type CardSigner,
  type ServedFacts,
} from './served-card.js';
import type { DocumentBuilder } from '../server-extension.js';

/** Forwarded base URLs whose views are kept at once. */
const FORWARDED_VIEWS = 16;

/** What every view of a server is built from. */
export interface CardSettings {
  agentCard: AgentCardInput;
  extendedAgentCard?: AgentCardInput | undefined;
  facts: Omit<ServedFacts, 'baseUrl'>;
  signer?: CardSigner | undefined;
  decorate?: CardDecorator | undefined;
  defaultVersion?: ProtocolVersion | undefined;
  maxAgeSeconds: number;
  /** Receives a signer's or decorator's failure, answered 500 (decision 0144). */
  report?: ErrorReporter | undefined;
}

/** How an extended card is written on one wire. */
export interface ExtendedCardWire {
  /** One object per wire form (a codec, a gRPC method): the cache key. */
  key: object;
  version: ProtocolVersion;
  encode: (card: AgentCard) => unknown;
  /**
   * Whether `decorateCard` applies (default true). Off on gRPC: members beyond the proto's would
   * be dropped on the way, and a signature over them would not verify.
   */
  decorate?: boolean;
}

/** One base URL's cards; see the file comment. */
export class CardView {
  readonly card: AgentCard;
  readonly extended: AgentCard | undefined;
  readonly endpoint: AgentCardEndpoint;
  private readonly extendedJson = new Map<object, Promise<Record<string, unknown>>>();
  private readonly documents = new Map<string, string>();

  constructor(
    readonly baseUrl: string | undefined,
    private readonly settings: CardSettings,
    replacedServedDate: Date | undefined,
  ) {
    const facts = Object.assign({ baseUrl }, settings.facts);
    this.card = servedCard(settings.agentCard, facts);
    const extended = settings.extendedAgentCard;
    this.extended = extended === undefined ? undefined : servedCard(extended, facts);
    this.endpoint = new AgentCardEndpoint(this.card, settings.maxAgeSeconds, {
      replacedServedDate,
      signer: settings.signer,
      decorate: settings.decorate,
      defaultVersion: settings.defaultVersion,
      report: settings.report,
    });
  }

  /** The extended card (which must exist) as `wire` serves it, signed as served. */
  extendedCardJson(wire: ExtendedCardWire): Promise<Record<string, unknown>> {
    let json = this.extendedJson.get(wire.key);
    if (json === undefined) {
      json = servedCardJson(this.extended!, wire.version, {
        encode: wire.encode,
        decorate: wire.decorate === false ? undefined : this.settings.decorate,
        signer: this.settings.signer,
      });
      // A failed signing is not kept: the next request tries again.
      json.catch(() => this.extendedJson.delete(wire.key));
      this.extendedJson.set(wire.key, json);
    }
    return json;
  }

  /** The document at `path`, built once from this view's base URL and card; throws what `build` throws. */
  document(path: string, build: DocumentBuilder): string {
    let body = this.documents.get(path);
    if (body === undefined) {
      body = JSON.stringify(build({ baseUrl: this.baseUrl ?? 'http://localhost/', card: this.card }));
      this.documents.set(path, body);
    }
    return body;
  }
}

/** A server's views: its own base URL's, and a few forwarded ones. */
export class CardViews {
  #main: CardView;
  private forwarded = new Map<string, CardView>();

  constructor(
    private settings: CardSettings,
    baseUrl: string | undefined,
  ) {
    this.#main = new CardView(baseUrl, settings, undefined);
  }

  /** The view at the server's own base URL. */
  get main(): CardView {
    return this.#main;
  }

  /** The view for a request: its proxied base URL's, else the server's own. */
  for(request: HttpRequest): CardView {
    const base = request.proxied?.base;
    if (base === undefined || base === this.#main.baseUrl) return this.#main;
    let view = this.forwarded.get(base);
    if (view !== undefined) {
      // Most recently used last: the first key is the one dropped.
      this.forwarded.delete(base);
    } else {
      view = new CardView(base, this.settings, undefined);
      if (this.forwarded.size >= FORWARDED_VIEWS) this.forwarded.delete(this.forwarded.keys().next().value!);
    }
    this.forwarded.set(base, view);
    return view;
  }

  /** Rebuilds every view from new settings (a new card, base URL or gRPC target). */
  rebuild(settings: CardSettings, baseUrl: string | undefined): void {
    // A date shared with a card clients may hold cannot tell the two apart (decision 0134).
    const served = [this.#main, ...this.forwarded.values()]
      .map((view) => view.endpoint.servedDate?.getTime())
      .filter((time): time is number => time !== undefined);
    const replaced = served.length === 0 ? undefined : new Date(Math.max(...served));
    this.settings = settings;
    this.#main = new CardView(baseUrl, settings, replaced);
    this.forwarded = new Map();
  }
}
