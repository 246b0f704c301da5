/**
 * Server-side A2A extensions (A2A 1.0 §4.6; decision 0054): the one interface through which an
 * extension (AUMP mandates, a profile such as AAP) plugs into an A2A server without the server
 * knowing it. An extension
 *
 * - is declared on the card (`capabilities.extensions[]`, §8.1), which is also what lets clients
 *   activate it (§8.2: the server activates only what its card declares);
 * - checks every send after the protocol checks, the contract gate and `admitMessage`, and refuses
 *   one by throwing an A2AError: nothing is created, nothing reaches the agent (`admit`);
 * - hears of every send that passed all checks, just before the agent gets it, and may record it
 *   (`accepted`: e.g. evidence with the A2A messageId); throwing there refuses the send too;
 * - may serve JSON documents at exact paths below the agent's base URL (`documents`, served as the
 *   server's own `documents` option is: GET/HEAD, ETag, built once per base URL; e.g. a profile);
 * - may offer the agent's code an object of its own (`service`, read by the executor as
 *   `context.extensions.get(uri)`);
 * - may, as a profile riding on A2A does (AAP), restate errors in its own table (`mapError`), add
 *   members to the card's wire JSON (`decorateCard`), say what a request without `A2A-Version`
 *   means (`defaultVersion`) and serve every route below a prefix too (`pathPrefixes`): the
 *   server options of decision 0063, contributed by the extension (decision 0154).
 *
 * Activated extensions are echoed in the response header by the server itself (A2A 1.0 §4.6.1; conformance rule 53).
 */
import type {
  A2AError,
  AgentCard,
  AgentExtension,
  Message,
  ProtocolVersion,
  SendMessageRequest,
  Task,
} from '../protocol/index.js';
import type { CallContext } from './call-context.js';

/** Builds a served document from the base URL and the card (1.0 form) as served there. */
export type DocumentBuilder = (context: { baseUrl: string; card: AgentCard }) => unknown;

/** A send as an extension sees it. */
export interface ExtensionSend {
  readonly request: SendMessageRequest;
  readonly call: CallContext;
  /** The stored task of a follow-up; undefined for a message that creates a task. */
  readonly task: Task | undefined;
  /** Whether the client activated this extension on the call (A2A 1.0 §4.6.1). */
  readonly activated: boolean;
}

/** A send that passed every check, as the agent is about to get it (or held for its owner's approval). */
export interface AcceptedSend extends ExtensionSend {
  /** The message with its task and context ids filled in. */
  readonly message: Message;
  readonly taskId: string;
  readonly contextId: string;
}

/** An A2A extension on the server side; see the file comment. Every member but `declaration` is optional. */
export interface ServerExtension {
  /** How the card declares it (A2A 1.0 §4.4.4 AgentExtension); added unless the card lists the URI. */
  readonly declaration: AgentExtension;
  /** Checks a send; throw an A2AError to refuse it before anything is created. */
  admit?(send: ExtensionSend): void | Promise<void>;
  /** Called once per accepted send, before the agent sees the message; throwing refuses the send. */
  accepted?(send: AcceptedSend): void | Promise<void>;
  /** JSON documents by exact path (e.g. `/.well-known/...`); the server's own `documents` win. */
  readonly documents?: Readonly<Record<string, DocumentBuilder>>;
  /** What the agent's code gets from `context.extensions.get(declaration.uri)`. */
  readonly service?: unknown;
  /**
   * Restates an error before it is encoded, on every binding (as the server's `mapError`, which
   * runs after the extensions' in list order); return the error itself to leave it as it is.
   */
  mapError?(error: A2AError): A2AError;
  /**
   * Adds members to the card's wire JSON for one version, before signing (as the server's
   * `decorateCard`, which runs after the extensions'); must not change what A2A defines.
   */
  decorateCard?(cardJson: Record<string, unknown>, version: ProtocolVersion): Record<string, unknown>;
  /** What a request without `A2A-Version` means; the server's own `defaultVersion` wins. */
  readonly defaultVersion?: ProtocolVersion;
  /** Path prefixes (e.g. `/a2a`) below which every route is served too, beside the server's own. */
  readonly pathPrefixes?: readonly string[];
}

/** The hooks of decision 0063 as the server runs them: its own options joined with its extensions'. */
export interface ServerHooks {
  mapError?: ((error: A2AError) => A2AError) | undefined;
  decorateCard?:
    ((cardJson: Record<string, unknown>, version: ProtocolVersion) => Record<string, unknown>) | undefined;
  defaultVersion?: ProtocolVersion | undefined;
  pathPrefixes?: readonly string[] | undefined;
}

/**
 * The server's own hooks joined with those of `extensions` (decision 0154): error mappers and card
 * decorators run in list order, the server's last (each mapper that throws leaves the error as it
 * was); the server's `defaultVersion` wins, and extensions that set different ones are refused;
 * path prefixes are the server's then the extensions', each once. Undefined where nobody set one.
 */
export function joinedHooks(own: ServerHooks, extensions: readonly ServerExtension[]): ServerHooks {
  const mappers = [...extensions.map((e) => e.mapError?.bind(e)), own.mapError].filter(
    (m) => m !== undefined,
  );
  const decorators = [...extensions.map((e) => e.decorateCard?.bind(e)), own.decorateCard].filter(
    (d) => d !== undefined,
  );
  let defaultVersion = own.defaultVersion;
  if (defaultVersion === undefined) {
    const setting = extensions.filter((e) => e.defaultVersion !== undefined);
    const versions = new Set(setting.map((e) => e.defaultVersion));
    if (versions.size > 1) {
      throw new TypeError(
        `extensions: ${setting.map((e) => `${e.declaration.uri} wants defaultVersion ${e.defaultVersion}`).join(', ')}; set the server's defaultVersion`,
      );
    }
    defaultVersion = setting[0]?.defaultVersion;
  }
  const prefixes = [
    ...new Set([...(own.pathPrefixes ?? []), ...extensions.flatMap((e) => e.pathPrefixes ?? [])]),
  ];
  return {
    mapError:
      mappers.length <= 1
        ? mappers[0]
        : (error) =>
            mappers.reduce((current, map) => {
              try {
                return map(current);
              } catch {
                return current;
              }
            }, error),
    decorateCard:
      decorators.length <= 1
        ? decorators[0]
        : (json, version) => decorators.reduce((current, decorate) => decorate(current, version), json),
    defaultVersion,
    pathPrefixes: own.pathPrefixes === undefined && prefixes.length === 0 ? undefined : prefixes,
  };
}

/**
 * Settings an extension refuses when it is built (e.g. from an agent definition's `extensions`);
 * `pointer` is the JSON Pointer of the wrong setting within them, so the host can name the field.
 */
export class ExtensionConfigError extends Error {
  override readonly name = 'ExtensionConfigError';

  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

/** The card's extensions plus the declarations it does not list yet (by URI, card first). */
export function withDeclarations(
  declared: readonly AgentExtension[] | undefined,
  extensions: readonly ServerExtension[],
): AgentExtension[] | undefined {
  if (extensions.length === 0) return declared === undefined ? undefined : [...declared];
  const out = [...(declared ?? [])];
  for (const { declaration } of extensions) {
    if (!out.some((each) => each.uri === declaration.uri)) out.push(declaration);
  }
  return out;
}

/** The services of `extensions` by URI, for `RequestContext.extensions`. */
export function extensionServices(extensions: readonly ServerExtension[]): ReadonlyMap<string, unknown> {
  const services = new Map<string, unknown>();
  for (const extension of extensions) {
    if (extension.service !== undefined) services.set(extension.declaration.uri, extension.service);
  }
  return services;
}
