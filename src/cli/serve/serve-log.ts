/**
 * The logs of `concord serve` (decision 0158). The library logs nothing itself; the CLI owns the
 * process, so it writes pino records: lifecycle lines, one access line per answered request (the
 * listeners' `onAccess` hook), warnings and errors. `--log-format json` writes pino's NDJSON as is;
 * `pretty` (the default on a terminal) one readable line per record, by the small formatter below
 * rather than pino-pretty, which would be one more package and a worker thread. Records at warn
 * and above go to stderr, the rest to stdout. Credentials never reach a line: access entries carry
 * the principal's name only, bodies are never logged, and pino's redaction blanks the usual
 * credential keys should any object carry one.
 */
import { UsageError } from '../exit-codes.js';
import { loadPeer } from '../../peers/index.js';
import type { ListenOptions } from '../../server/adapters/node.js';

/** The listeners' access hook and its entry (server/common/access-entry.ts). */
export type AccessHook = NonNullable<ListenOptions['onAccess']>;
export type AccessEntry = Parameters<AccessHook>[0];

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'json' | 'pretty';

/** The environment variables the flags default to. */
export const LOG_LEVEL_ENV = 'CONCORD_LOG_LEVEL';
export const LOG_FORMAT_ENV = 'CONCORD_LOG_FORMAT';

/** The lines of `serve --help` for these flags. */
export const LOG_USAGE = `  --log-level <level>   trace, debug, info (default), warn, error or silent (also $${LOG_LEVEL_ENV})
  --log-format <f>      json (one pino record per line) or pretty (default on a terminal, json
                        otherwise; also $${LOG_FORMAT_ENV})`;

/** The parseArgs options of these flags. */
export const LOG_OPTIONS = {
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
} as const;

/** What `concord serve` logs through; pino's Logger has these members. */
export interface ServeLogger {
  trace(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  flush(): void;
}

/** Where the records go (the process's streams; tests pass their own). */
export interface LogSinks {
  out: { write(text: string): unknown; isTTY?: boolean | undefined };
  err: { write(text: string): unknown };
}

/** Keys blanked wherever they appear in a logged object (decision 0158: never log a secret). */
const REDACT = [
  'authorization',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'apiKey',
  'token',
  'password',
  'secret',
  '*.authorization',
  '*.apiKey',
  '*.token',
  '*.password',
  '*.secret',
];

/** The flags' values, checked. */
export function logFlags(
  values: { 'log-level'?: string | undefined; 'log-format'?: string | undefined },
  env: NodeJS.ProcessEnv,
  sinks: LogSinks,
): { level: LogLevel; format: LogFormat } {
  const level = values['log-level'] ?? env[LOG_LEVEL_ENV] ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new UsageError(`--log-level: expected ${LOG_LEVELS.join(', ')}, got ${level}`);
  }
  const format =
    values['log-format'] ?? env[LOG_FORMAT_ENV] ?? (sinks.out.isTTY === true ? 'pretty' : 'json');
  if (format !== 'json' && format !== 'pretty') {
    throw new UsageError(`--log-format: expected json or pretty, got ${format}`);
  }
  return { level: level as LogLevel, format };
}

/** Opens the logger (pino is an optional peer: a missing one is named with its install line). */
export async function openLogger(
  settings: { level: LogLevel; format: LogFormat },
  sinks: LogSinks,
): Promise<ServeLogger> {
  const { pino } = await loadPeer('logger', () => import('pino'));
  const destination = {
    write(line: string): void {
      const level = levelOf(line);
      const text = settings.format === 'json' ? line : prettyLine(line);
      (level >= 40 ? sinks.err : sinks.out).write(text);
    },
  };
  const logger = pino(
    {
      level: settings.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: '[redacted]' },
    },
    destination,
  );
  // Methods bound to the logger, so they can be handed around; pino's own type has a thenable
  // member TypeScript refuses as an async function's result.
  return {
    trace: (obj, msg) => logger.trace(obj, msg),
    debug: (obj, msg) => logger.debug(obj, msg),
    info: (obj: object | string, msg?: string) =>
      typeof obj === 'string' ? logger.info(obj) : logger.info(obj, msg),
    warn: (obj: object | string, msg?: string) =>
      typeof obj === 'string' ? logger.warn(obj) : logger.warn(obj, msg),
    error: (obj: object | string, msg?: string) =>
      typeof obj === 'string' ? logger.error(obj) : logger.error(obj, msg),
    flush: () => logger.flush(),
  };
}

/** pino writes `{"level":30,...`: the number, without parsing the record. */
function levelOf(line: string): number {
  const found = /^\{"level":(\d+)/.exec(line);
  return found === null ? 30 : Number(found[1]);
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};

/** Keys the pretty line shows in its own way, or not at all. */
const SHOWN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'kind', 'err', 'event', 'url']);

/**
 * One record as one readable line: `12:00:00.123 INFO  message key=value ...`; an error's stack
 * follows on its own lines. The message stays verbatim, so the lifecycle lines read as before.
 */
export function prettyLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof record.time === 'string' ? record.time.slice(11, 23) : '';
  const level = LEVEL_NAMES[Number(record.level)] ?? 'INFO ';
  const extra = Object.entries(record)
    .filter(([key, value]) => !SHOWN.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? quoted(value) : JSON.stringify(value)}`);
  const message = typeof record.msg === 'string' ? record.msg : '';
  let text = [time, level, message, ...extra].filter((part) => part !== '').join(' ');
  const err = record.err as { stack?: unknown } | undefined;
  if (err !== undefined && typeof err.stack === 'string' && settingsShowStacks(level))
    text += `\n${err.stack}`;
  return `${text}\n`;
}

function settingsShowStacks(level: string): boolean {
  return level === 'ERROR' || level === 'FATAL' || level === 'DEBUG' || level === 'TRACE';
}

function quoted(value: string): string {
  return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
}

/**
 * The access hook writing one line per answered request: status and duration first, then what the
 * binding learned (operation, task, trace, principal, error). Never headers, never bodies.
 */
export function accessLogger(logger: ServeLogger): AccessHook {
  return (entry) => {
    const { method, target, status, durationMs, ...facts } = entry;
    const fields: Record<string, unknown> = {
      kind: 'access',
      method,
      target,
      status,
      durationMs: Math.round(durationMs * 10) / 10,
    };
    for (const [key, value] of Object.entries(facts)) if (value !== undefined) fields[key] = value;
    const failed = typeof status === 'number' && (method === 'GRPC' ? status === 13 : status >= 500);
    const message = `${method} ${target} ${status} ${fields.durationMs as number}ms`;
    if (failed) logger.warn(fields, message);
    else logger.info(fields, message);
  };
}

/** The `onError` of the server and host: an error with no caller, as an error record. */
export function errorReporter(logger: ServeLogger): (error: unknown, where: string) => void {
  return (error, where) => {
    if (error instanceof Error) logger.error({ where, err: error }, `${where}: ${error.message}`);
    else logger.error({ where }, `${where}: ${String(error)}`);
  };
}
