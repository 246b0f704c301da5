/**
 * The operations routes of a serving process (decision 0158): `/healthz` (the process serves),
 * `/readyz` (it can do its work: stores reachable at their schema version, the cluster bus
 * connected; 503 once a shutdown began, so a load balancer stops sending before the listener
 * closes) and, when asked for, `/metrics` (a Prometheus scrape). They sit in front of the agents,
 * outside their authentication: a probe carries no credentials. What failed is told only to a
 * loopback caller that came through no proxy, or to a caller the host authenticates; anyone else
 * learns `ok` or `unavailable`, since check messages name hosts, schemas and versions.
 */
import type { A2AError } from '../protocol/index.js';
import type {
  HttpApp,
  HttpBodyResponse,
  HttpRequest,
  HttpResponse,
  RefusedRequest,
} from '../server/internal.js';

/** One readiness condition: resolves when it holds, rejects (or throws) saying why not. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void> | void;
}

/** Options of `OpsFront`. */
export interface OpsFrontOptions {
  /** The checks of `/readyz`, read per probe (a reload may add stores). */
  checks?: (() => readonly ReadinessCheck[]) | undefined;
  /** Serves `/metrics` with this text (Prometheus exposition format) when set. */
  metrics?: (() => Promise<string>) | undefined;
  /** True for a caller allowed the details of `/readyz` besides loopback ones (the host's auth). */
  authorized?: ((request: HttpRequest) => Promise<boolean>) | undefined;
  /** How long one check may take before it counts as failed (default 2 s). */
  checkTimeoutMs?: number | undefined;
}

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';

/** The Prometheus text format's content type (exposition format 0.0.4). */
const PROMETHEUS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** An HttpApp answering the operations routes and passing everything else to `inner`. */
export class OpsFront implements HttpApp {
  readonly maxBodyBytes: number;
  refusal?: (error: A2AError, request: RefusedRequest) => HttpBodyResponse;
  private stopping = false;

  constructor(
    private readonly inner: HttpApp,
    private readonly options: OpsFrontOptions = {},
  ) {
    this.maxBodyBytes = inner.maxBodyBytes;
    if (inner.refusal !== undefined) this.refusal = (error, request) => inner.refusal!(error, request);
  }

  /** From now on `/readyz` answers 503: the process is shutting down (decision 0158). */
  drain(): void {
    this.stopping = true;
  }

  setBaseUrl(baseUrl: string): void {
    this.inner.setBaseUrl(baseUrl);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async handle(request: HttpRequest): Promise<HttpResponse> {
    const { path } = request;
    const route =
      path === HEALTH_PATH ||
      path === READY_PATH ||
      (path === METRICS_PATH && this.options.metrics !== undefined);
    if (!route) return this.inner.handle(request);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return { status: 405, headers: { allow: 'GET, HEAD', 'content-type': 'text/plain' }, body: '' };
    }
    if (path === HEALTH_PATH) return json(200, { status: 'ok' });
    if (path === METRICS_PATH) {
      try {
        const body = await this.options.metrics!();
        return {
          status: 200,
          headers: { 'content-type': PROMETHEUS_TYPE, 'cache-control': 'no-store' },
          body,
        };
      } catch {
        return {
          status: 500,
          headers: { 'content-type': 'text/plain' },
          body: '# metrics collection failed\n',
        };
      }
    }
    return this.ready(request);
  }

  private async ready(request: HttpRequest): Promise<HttpResponse> {
    const results: Record<string, string> = {};
    if (this.stopping) results.shutdown = 'shutting down';
    const checks = this.options.checks?.() ?? [];
    const timeoutMs = this.options.checkTimeoutMs ?? 2_000;
    await Promise.all(
      checks.map(async ({ name, check }) => {
        results[name] = await outcome(check, timeoutMs);
      }),
    );
    const ok = Object.values(results).every((result) => result === 'ok');
    const status = ok ? 'ok' : 'unavailable';
    if (!(await this.mayKnow(request))) return json(ok ? 200 : 503, { status });
    return json(ok ? 200 : 503, { status, checks: results });
  }

  /** Loopback callers not forwarded by a proxy (which would make every caller loopback), or authorized ones. */
  private async mayKnow(request: HttpRequest): Promise<boolean> {
    const forwarded = request.header('forwarded') ?? request.header('x-forwarded-for');
    if (forwarded === undefined && isLoopback(request.remoteAddress)) return true;
    if (this.options.authorized === undefined) return false;
    try {
      return await this.options.authorized(request);
    } catch {
      return false;
    }
  }
}

/** `ok`, or why the check failed (its message, or that it took too long). */
async function outcome(check: ReadinessCheck['check'], timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(check)
        .then(
          () => 'ok',
          (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'failed',
        ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || /^127\./.test(v4);
}

function json(status: number, body: unknown): HttpBodyResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    body: JSON.stringify(body),
  };
}
