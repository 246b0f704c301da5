/**
 * The Concord Console (decision 0159): `/console/` serves a web page that shows and steers the
 * agents of the listener it is on. The page reads and acts through the routes any client uses —
 * the agents' A2A HTTP+JSON endpoints, `/agents`, and the host's contracts, approvals, push and
 * evidence APIs — so it sees exactly what its listener and its caller's credentials allow. Its
 * own routes are few:
 *
 * - `GET /console/`, `console.js`, `console.css`: the built page (console-assets);
 * - `GET /console/api/schemes`: how to sign in — the schemes the host's cards declare, no secret;
 * - `GET /console/api/session`: who the credentials prove (401 without valid ones on a host with
 *   security), which listener this is, and the trace viewer link template;
 * - `GET /console/api/traces?agent=&task=`: the trace id of a task's first traced call (null
 *   when none is known).
 *
 * The page keeps the credential in the tab's session storage and sends it on every request, as
 * the card's scheme says; the host has no console session, cookie or other private way in.
 */
import { A2AError, toRestErrorBody, type SecurityScheme } from '../../protocol/internal.js';
import {
  authenticateChallenge,
  type HttpApp,
  type HttpBodyResponse,
  type HttpRequest,
  type HttpResponse,
  type RefusedRequest,
} from '../../server/internal.js';
import type { AgentHost } from '../agent-host.js';
import type { SecuritySchemeConfig } from '../host-config.js';
import { ConsoleAssets, CONSOLE_SECURITY_HEADERS } from './console-assets.js';
import type { ConsoleScheme } from './console-scheme.js';
import type { TraceIndex } from './trace-index.js';

export const CONSOLE_PATH = '/console';

/** Options of `ConsoleFront`. */
export interface ConsoleFrontOptions {
  /** Where a trace id links to: a URL with `{traceId}` in it (a Jaeger or Tempo page, say). */
  traceUrl?: string | undefined;
  /** The traces of tasks, when tracing is on. */
  traces?: TraceIndex | undefined;
  /** The built files; one instance may serve several listeners. */
  assets?: ConsoleAssets | undefined;
}

/** An HttpApp answering the console's routes and passing everything else to the host view. */
export class ConsoleFront implements HttpApp {
  readonly maxBodyBytes: number;
  refusal?: (error: A2AError, request: RefusedRequest) => HttpBodyResponse;
  private readonly assets: ConsoleAssets;

  constructor(
    private readonly host: AgentHost,
    private readonly options: ConsoleFrontOptions = {},
  ) {
    this.maxBodyBytes = host.maxBodyBytes;
    this.refusal = (error, request) => host.refusal(error, request);
    this.assets = options.assets ?? new ConsoleAssets();
  }

  setBaseUrl(baseUrl: string): void {
    this.host.setBaseUrl(baseUrl);
  }

  close(): Promise<void> {
    return this.host.close();
  }

  handle(request: HttpRequest): Promise<HttpResponse> {
    const { path } = request;
    if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return this.host.handle(request);
    return this.console(request);
  }

  private async console(request: HttpRequest): Promise<HttpResponse> {
    const { path } = request;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return this.json(
        405,
        errorBody(new A2AError('MethodNotFoundError', `${request.method} is not allowed here`)),
        {
          allow: 'GET, HEAD',
        },
      );
    }
    // The page's links are relative to `/console/`, behind a proxy's path prefix too.
    if (path === CONSOLE_PATH) {
      return { status: 308, headers: { ...CONSOLE_SECURITY_HEADERS, location: 'console/' }, body: '' };
    }
    const rest = path.slice(CONSOLE_PATH.length + 1);
    if (rest === 'api/schemes') return this.json(200, { schemes: this.schemes() });
    if (rest === 'api/session') return this.session(request);
    if (rest === 'api/traces') return this.trace(request);
    return this.assets.serve(request, rest);
  }

  private async session(request: HttpRequest): Promise<HttpResponse> {
    const secured = this.host.config.security !== undefined;
    const identity = secured ? await this.host.identify(request) : undefined;
    if (secured && identity === undefined) return this.unauthenticated();
    return this.json(200, {
      listener: this.host.listener,
      principal: identity?.name ?? null,
      scopes: identity?.scopes ?? [],
      secured,
      traceUrl: this.options.traceUrl ?? null,
    });
  }

  private async trace(request: HttpRequest): Promise<HttpResponse> {
    if (this.host.config.security !== undefined && (await this.host.identify(request)) === undefined) {
      return this.unauthenticated();
    }
    const agent = request.query.get('agent') ?? '';
    const task = request.query.get('task');
    if (task === null || task === '') {
      const error = new A2AError('InvalidParamsError', 'task is required', {
        violations: [{ field: 'task', description: 'expected a task id' }],
      });
      return this.json(400, errorBody(error));
    }
    // Not knowing a trace is an answer, not an error: tracing may be off, or the task older
    // than this process (the page then shows no link).
    return this.json(200, { traceId: this.options.traces?.traceOf(agent, task) ?? null });
  }

  private schemes(): ConsoleScheme[] {
    const schemes = this.host.config.security?.schemes ?? {};
    return Object.entries(schemes).map(([name, scheme]) => describe(name, scheme));
  }

  private unauthenticated(): HttpResponse {
    const error = new A2AError(
      'UnauthenticatedError',
      'The console needs credentials one of the host schemes accepts',
    );
    const challenge = authenticateChallenge({
      securitySchemes: cardSchemes(this.host.config.security?.schemes),
    });
    return this.json(401, errorBody(error), { 'www-authenticate': challenge });
  }

  private json(status: number, body: unknown, extra: Record<string, string> = {}): HttpResponse {
    return {
      status,
      headers: {
        ...CONSOLE_SECURITY_HEADERS,
        'content-type': 'application/json',
        'cache-control': 'no-store',
        ...extra,
      },
      body: JSON.stringify(body),
    };
  }
}

function describe(name: string, scheme: SecuritySchemeConfig): ConsoleScheme {
  const described: ConsoleScheme = { name, type: scheme.type };
  if (scheme.type === 'http') {
    described.scheme = scheme.scheme;
    if (scheme.bearerFormat !== undefined) described.bearerFormat = scheme.bearerFormat;
  } else {
    described.in = scheme.in;
    described.keyName = scheme.name;
  }
  if (scheme.description !== undefined) described.description = scheme.description;
  return described;
}

/** The host's schemes as a card declares them, for the 401 challenge the agents' endpoints also send. */
function cardSchemes(schemes: Record<string, SecuritySchemeConfig> = {}): Record<string, SecurityScheme> {
  const declared: Record<string, SecurityScheme> = {};
  for (const [name, scheme] of Object.entries(schemes)) {
    declared[name] =
      scheme.type === 'http'
        ? { httpAuthSecurityScheme: { scheme: scheme.scheme } }
        : { apiKeySecurityScheme: { location: scheme.in, name: scheme.name } };
  }
  return declared;
}

function errorBody(error: A2AError): unknown {
  return toRestErrorBody(error);
}
