/**
 * What `concord serve` does as the owner of its process (decision 0158), whichever target it
 * serves: the logger, the telemetry SDK, the shutdown grace and the shutdown sequence. A stop
 * (SIGTERM or SIGINT) first turns `/readyz` to 503, then stops the listeners (new connections are
 * refused, running requests get the grace period, open streams end and their clients resume with
 * Last-Event-ID or SubscribeToTask), then releases the stores and the cluster, flushes telemetry,
 * and the process exits 0.
 */
import { UsageError } from '../exit-codes.js';
import { parseDuration } from '../../store/internal.js';
import {
  accessLogger,
  errorReporter,
  LOG_OPTIONS,
  LOG_USAGE,
  logFlags,
  openLogger,
  type AccessHook,
  type LogSinks,
  type ServeLogger,
} from './serve-log.js';
import {
  startTelemetry,
  TELEMETRY_OPTIONS,
  TELEMETRY_USAGE,
  telemetrySettings,
  type ServeTelemetry,
} from './serve-telemetry.js';

/** The lines of `serve --help` for the process flags. */
export const PROCESS_USAGE = `${LOG_USAGE}
${TELEMETRY_USAGE}
  --shutdown-grace <t>  on SIGTERM / SIGINT, how long running requests may take to finish before
                        they are cut (default 10s; /readyz answers 503 from the signal on)`;

/** The parseArgs options of the process flags. */
export const PROCESS_OPTIONS = {
  ...LOG_OPTIONS,
  ...TELEMETRY_OPTIONS,
  'shutdown-grace': { type: 'string' },
} as const;

/** The flags' values as parseArgs returns them. */
export interface ProcessFlagValues {
  'log-level'?: string | undefined;
  'log-format'?: string | undefined;
  otlp?: string | undefined;
  metrics?: boolean | undefined;
  'shutdown-grace'?: string | undefined;
}

/** The serving process's plumbing. */
export interface ServeProcess {
  logger: ServeLogger;
  /** A lifecycle line (the banner's lines, start to stop). */
  line: (text: string, fields?: Record<string, unknown>) => void;
  onError: (error: unknown, where: string) => void;
  onAccess: AccessHook;
  telemetry?: ServeTelemetry | undefined;
  shutdownGraceMs: number;
  /** Resolves with the signal's name on SIGTERM / SIGINT (installed before anything listens). */
  stopped: Promise<string>;
}

/** The flags checked (a usage error before anything loads). */
export function processSettings(values: ProcessFlagValues, env: NodeJS.ProcessEnv, sinks: LogSinks) {
  return {
    log: logFlags(values, env, sinks),
    telemetry: telemetrySettings(values, env),
    shutdownGraceMs: graceFlag(values['shutdown-grace']),
  };
}

/** Opens the logger and the telemetry SDK, and listens for the stop signals. */
export async function openServeProcess(
  settings: ReturnType<typeof processSettings>,
  sinks: LogSinks,
): Promise<ServeProcess> {
  const logger = await openLogger(settings.log, sinks);
  const stopped = stopSignal();
  let telemetry: ServeTelemetry | undefined;
  if (settings.telemetry !== undefined) {
    telemetry = await startTelemetry(settings.telemetry);
    if (!telemetry.tracesRecording) {
      logger.warn(
        'traces: the tracer provider registered but its spans do not record; another version of ' +
          '@opentelemetry/api is probably installed next to the SDK (npm ls @opentelemetry/api)',
      );
    }
  }
  return {
    logger,
    line: (text, fields) => (fields === undefined ? logger.info(text) : logger.info(fields, text)),
    onError: errorReporter(logger),
    onAccess: accessLogger(logger),
    telemetry,
    shutdownGraceMs: settings.shutdownGraceMs,
    stopped,
  };
}

/**
 * The shutdown sequence after the signal: `drain` (readyz 503), `close` (listeners with their
 * grace, then stores, cluster, agent), then telemetry flushed; each step is logged.
 */
export async function shutDown(
  process_: ServeProcess,
  signal: string,
  steps: { drain(): void; close(): Promise<void> },
): Promise<number> {
  const { logger } = process_;
  logger.info({ event: 'shutdown', signal }, 'Concord is stopping: finishing in-flight requests');
  steps.drain();
  let code = 0;
  try {
    await steps.close();
  } catch (error) {
    process_.onError(error, 'shutdown');
    code = 1;
  }
  await process_.telemetry?.shutdown();
  logger.info({ event: 'stopped' }, 'Concord stopped');
  logger.flush();
  return code;
}

function graceFlag(value: string | undefined): number {
  if (value === undefined) return 10_000;
  let ms: number;
  try {
    ms = Math.round(parseDuration(value));
  } catch (error) {
    throw new UsageError(`--shutdown-grace: ${(error as Error).message}`);
  }
  if (ms < 1) throw new UsageError(`--shutdown-grace: expected at least 1ms, got ${value}`);
  return ms;
}

/** Resolves on SIGTERM / SIGINT; installed before the ready line, as a supervisor may signal at once. */
function stopSignal(): Promise<string> {
  return new Promise<string>((resolveStop) => {
    const stop = (signal: string): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolveStop(signal);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
