/**
 * The OpenTelemetry SDK of `concord serve` (decisions 0157-0158): `--otlp <url>` (or the standard
 * OTEL_EXPORTER_OTLP_* variables) sends traces and metrics over OTLP/HTTP, `--metrics` serves a
 * Prometheus scrape at `/metrics`. The SDK packages are optional peers, loaded only when asked for;
 * the providers, the W3C propagators and an AsyncLocalStorage context manager are registered
 * through the telemetry layer (the only place that imports @opentelemetry/api), and flushed and
 * shut down when the process stops.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../exit-codes.js';
import { loadPeer } from '../../peers/index.js';
import { registerTelemetry } from '../../telemetry/index.js';

/** The lines of `serve --help` for these flags. */
export const TELEMETRY_USAGE = `  --otlp <url>          send traces and metrics over OTLP/HTTP to this collector (base URL;
                        /v1/traces and /v1/metrics are appended; default:
                        $OTEL_EXPORTER_OTLP_ENDPOINT; see docs/guides/operate.md)
  --metrics             serve Prometheus metrics at /metrics (on the internal listener when there
                        is one; firewall it otherwise)`;

/** The parseArgs options of these flags. */
export const TELEMETRY_OPTIONS = {
  otlp: { type: 'string' },
  metrics: { type: 'boolean', default: false },
} as const;

/** What the flags and the environment ask for, checked before anything loads. */
export interface TelemetrySettings {
  /** Where traces go (OTLP/HTTP JSON), when they are sent. */
  tracesUrl?: string | undefined;
  /** Where metrics go, when they are pushed. */
  metricsUrl?: string | undefined;
  /** Serve the Prometheus scrape. */
  prometheus: boolean;
  serviceName: string;
  /** Fraction of root traces kept (1 = always_on). */
  ratio: number;
  /** Whether a sampled parent decides for its children (the `parentbased_*` samplers). */
  parentBased: boolean;
  scheduleDelayMs: number;
  exportIntervalMs: number;
}

/** The running SDK. */
export interface ServeTelemetry {
  /** The Prometheus text of the current metrics, with `--metrics`. */
  scrape?: (() => Promise<string>) | undefined;
  /** For the start lines: where traces and metrics go. */
  describe: string[];
  /** False when the tracer provider registered but spans do not record (API version skew). */
  tracesRecording: boolean;
  /** Flushes what is buffered and shuts the providers down. */
  shutdown(): Promise<void>;
}

/** Reads the flags and the OTEL_* variables; undefined when no telemetry is asked for. */
export function telemetrySettings(
  values: { otlp?: string | undefined; metrics?: boolean | undefined },
  env: NodeJS.ProcessEnv,
): TelemetrySettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' && values.otlp === undefined) {
    return values.metrics === true ? { ...defaults(env), prometheus: true } : undefined;
  }
  const base = values.otlp ?? nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (base !== undefined)
    checkUrl(base, values.otlp !== undefined ? '--otlp' : 'OTEL_EXPORTER_OTLP_ENDPOINT');
  // Signal endpoints are used verbatim, as the OpenTelemetry specification says; the base gets
  // the signal's path appended.
  const tracesUrl = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ?? signalUrl(base, 'v1/traces');
  const metricsUrl = nonEmpty(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT) ?? signalUrl(base, 'v1/metrics');
  if (tracesUrl !== undefined) checkUrl(tracesUrl, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (metricsUrl !== undefined) checkUrl(metricsUrl, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT');
  const prometheus = values.metrics === true;
  if (tracesUrl === undefined && metricsUrl === undefined && !prometheus) return undefined;
  return { ...defaults(env), tracesUrl, metricsUrl, prometheus };
}

function defaults(env: NodeJS.ProcessEnv): TelemetrySettings {
  const sampler = (nonEmpty(env.OTEL_TRACES_SAMPLER) ?? 'parentbased_always_on').toLowerCase();
  const arg = nonEmpty(env.OTEL_TRACES_SAMPLER_ARG);
  let ratio: number;
  switch (sampler.replace(/^parentbased_/, '')) {
    case 'always_on':
      ratio = 1;
      break;
    case 'always_off':
      ratio = 0;
      break;
    case 'traceidratio': {
      ratio = arg === undefined ? 1 : Number(arg);
      if (!(ratio >= 0 && ratio <= 1)) {
        throw new UsageError(`OTEL_TRACES_SAMPLER_ARG: expected a ratio from 0 to 1, got ${arg}`);
      }
      break;
    }
    default:
      throw new UsageError(
        `OTEL_TRACES_SAMPLER: expected always_on, always_off, traceidratio or their parentbased_ forms, got ${sampler}`,
      );
  }
  return {
    prometheus: false,
    serviceName: nonEmpty(env.OTEL_SERVICE_NAME) ?? 'concord',
    ratio,
    parentBased: sampler.startsWith('parentbased_'),
    scheduleDelayMs: millis(env.OTEL_BSP_SCHEDULE_DELAY, 'OTEL_BSP_SCHEDULE_DELAY', 5_000),
    exportIntervalMs: millis(env.OTEL_METRIC_EXPORT_INTERVAL, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000),
  };
}

/** Loads the SDK, builds the providers and registers them globally. */
export async function startTelemetry(settings: TelemetrySettings): Promise<ServeTelemetry> {
  const otlp = settings.tracesUrl !== undefined || settings.metricsUrl !== undefined;
  const peer = otlp ? 'tracing' : 'prometheus';
  // Every package of the feature is loaded up front, so a missing one is named before anything runs.
  const [{ MeterProvider, PeriodicExportingMetricReader }, core, { resourceFromAttributes }] =
    await Promise.all([
      loadPeer(peer, () => import('@opentelemetry/sdk-metrics')),
      loadPeer(peer, () => import('@opentelemetry/core')),
      loadPeer(peer, () => import('@opentelemetry/resources')),
    ]);
  const resource = resourceFromAttributes({
    'service.name': settings.serviceName,
    'service.version': packageVersion(),
  });
  const readers: ConstructorParameters<typeof MeterProvider>[0] extends infer O
    ? O extends { readers?: infer R }
      ? NonNullable<R>
      : never
    : never = [];
  const describe: string[] = [];
  let scrape: (() => Promise<string>) | undefined;
  if (settings.prometheus) {
    const { PrometheusExporter, PrometheusSerializer } = await loadPeer(
      'prometheus',
      () => import('@opentelemetry/exporter-prometheus'),
    );
    // Never its own server: /metrics is mounted on Concord's listener (the exporter ignores port 0).
    const exporter = new PrometheusExporter({ preventServerStart: true });
    const serializer = new PrometheusSerializer();
    readers.push(exporter);
    scrape = async () => serializer.serialize((await exporter.collect()).resourceMetrics);
    describe.push('metrics: Prometheus scrape at /metrics');
  }
  let tracerProvider: { shutdown(): Promise<void> } | undefined;
  let contextManager: unknown;
  let tracing: Parameters<typeof registerTelemetry>[0] = {};
  if (otlp) {
    const [sdkTrace, { AsyncLocalStorageContextManager }, traceExporter, metricExporter] = await Promise.all([
      loadPeer('tracing', () => import('@opentelemetry/sdk-trace')),
      loadPeer('tracing', () => import('@opentelemetry/context-async-hooks')),
      loadPeer('tracing', () => import('@opentelemetry/exporter-trace-otlp-http')),
      loadPeer('tracing', () => import('@opentelemetry/exporter-metrics-otlp-http')),
    ]);
    if (settings.metricsUrl !== undefined) {
      readers.push(
        new PeriodicExportingMetricReader({
          exporter: new metricExporter.OTLPMetricExporter({ url: settings.metricsUrl }),
          exportIntervalMillis: settings.exportIntervalMs,
          exportTimeoutMillis: Math.min(30_000, settings.exportIntervalMs),
        }),
      );
      describe.push(`metrics: OTLP to ${settings.metricsUrl} every ${settings.exportIntervalMs} ms`);
    }
    if (settings.tracesUrl !== undefined) {
      const root =
        settings.ratio >= 1
          ? new sdkTrace.AlwaysOnSampler()
          : settings.ratio <= 0
            ? new sdkTrace.AlwaysOffSampler()
            : new sdkTrace.TraceIdRatioBasedSampler(settings.ratio);
      const provider = new sdkTrace.TracerProvider({
        resource,
        sampler: settings.parentBased ? new sdkTrace.ParentBasedSampler({ root }) : root,
        spanProcessors: [
          new sdkTrace.BatchSpanProcessor({
            exporter: new traceExporter.OTLPTraceExporter({ url: settings.tracesUrl }),
            scheduledDelayMillis: settings.scheduleDelayMs,
          }),
        ],
      });
      tracerProvider = provider;
      contextManager = new AsyncLocalStorageContextManager();
      tracing = {
        tracerProvider: provider,
        propagator: new core.CompositePropagator({
          propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
        }),
        contextManager: contextManager as NonNullable<
          Parameters<typeof registerTelemetry>[0]['contextManager']
        >,
      };
      describe.push(`traces: OTLP to ${settings.tracesUrl} (${samplerName(settings)})`);
    }
  }
  const meterProvider = readers.length > 0 ? new MeterProvider({ resource, readers }) : undefined;
  const registered = registerTelemetry({ ...tracing, meterProvider });
  return {
    ...(scrape === undefined ? {} : { scrape }),
    describe,
    tracesRecording: registered.tracesRecording,
    async shutdown() {
      // Bounded: a collector that does not answer must not hold the process past its stop.
      await within(5_000, Promise.allSettled([tracerProvider?.shutdown(), meterProvider?.shutdown()]));
      registered.unregister();
    },
  };
}

function samplerName(settings: TelemetrySettings): string {
  const root =
    settings.ratio >= 1 ? 'always_on' : settings.ratio <= 0 ? 'always_off' : `ratio ${settings.ratio}`;
  return settings.parentBased ? `parent-based, ${root}` : root;
}

async function within(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function signalUrl(base: string | undefined, path: string): string | undefined {
  if (base === undefined) return undefined;
  return `${base.replace(/\/+$/, '')}/${path}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function checkUrl(value: string, where: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${where}: not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${where}: expected an http or https URL (OTLP/HTTP), got ${value}`);
  }
}

function millis(value: string | undefined, name: string, fallback: number): number {
  const text = nonEmpty(value);
  if (text === undefined) return fallback;
  const ms = Number(text);
  if (!Number.isSafeInteger(ms) || ms < 1)
    throw new UsageError(`${name}: expected milliseconds, got ${text}`);
  return ms;
}

/** This package's version, for the resource's service.version (dist/cli/serve/ is three levels down). */
function packageVersion(): string {
  const json = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return json.version;
}
