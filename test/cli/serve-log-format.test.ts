/**
 * The logger of `concord serve` in process (decision 0158): the pretty formatter's one line per
 * record, the access hook's fields, the warn-and-above split to stderr, and redaction of the
 * credential keys pino is told to blank.
 */
import { describe, expect, it } from 'vitest';
import { accessLogger, logFlags, openLogger, prettyLine } from '../../src/cli/serve/serve-log.js';

function sinks(isTTY = false) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    sinks: {
      out: { write: (text: string) => out.push(text), isTTY },
      err: { write: (text: string) => err.push(text) },
    },
  };
}

describe('serve logs', () => {
  it('defaults to pretty on a terminal and json otherwise; the flag and the environment win', () => {
    expect(logFlags({}, {}, sinks(true).sinks)).toEqual({ level: 'info', format: 'pretty' });
    expect(logFlags({}, {}, sinks(false).sinks)).toEqual({ level: 'info', format: 'json' });
    expect(logFlags({}, { CONCORD_LOG_FORMAT: 'pretty' }, sinks().sinks).format).toBe('pretty');
    expect(logFlags({ 'log-format': 'json' }, { CONCORD_LOG_FORMAT: 'pretty' }, sinks().sinks).format).toBe(
      'json',
    );
    expect(() => logFlags({ 'log-level': 'loud' }, {}, sinks().sinks)).toThrow(/--log-level/);
    expect(() => logFlags({ 'log-format': 'xml' }, {}, sinks().sinks)).toThrow(/--log-format/);
  });

  it('writes one JSON access record per entry, with what the binding learned', async () => {
    const { out, sinks: s } = sinks();
    const logger = await openLogger({ level: 'info', format: 'json' }, s);
    accessLogger(logger)({
      method: 'POST',
      target: '/agents/echo/',
      status: 200,
      durationMs: 12.345,
      binding: 'JSONRPC',
      version: '1.0',
      operation: 'SendMessage',
      taskId: 't-1',
      principal: 'alice',
      traceId: undefined,
    });
    expect(out).toHaveLength(1);
    const record = JSON.parse(out[0]!) as Record<string, unknown>;
    expect(record).toMatchObject({
      kind: 'access',
      method: 'POST',
      target: '/agents/echo/',
      status: 200,
      durationMs: 12.3,
      binding: 'JSONRPC',
      operation: 'SendMessage',
      taskId: 't-1',
      principal: 'alice',
      msg: 'POST /agents/echo/ 200 12.3ms',
    });
    expect('traceId' in record).toBe(false);
  });

  it('sends warnings and errors to stderr, blanks credential keys, and formats pretty lines', async () => {
    const { out, err, sinks: s } = sinks();
    const logger = await openLogger({ level: 'info', format: 'pretty' }, s);
    logger.info({ headers: { authorization: 'Bearer abc.def.ghi' }, apiKey: 'k-123' }, 'a record');
    logger.warn('careful');
    logger.debug({}, 'not shown at info');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}a record /);
    expect(out[0]).not.toContain('abc.def.ghi');
    expect(out[0]).not.toContain('k-123');
    expect(out[0]).toContain('[redacted]');
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/WARN {2}careful\n$/);
  });

  it('keeps a plain message verbatim in the pretty line', () => {
    const line = JSON.stringify({
      level: 30,
      time: '2026-01-01T10:11:12.345Z',
      pid: 1,
      msg: 'Concord is serving "X" at http://h/',
    });
    expect(prettyLine(line)).toBe('10:11:12.345 INFO  Concord is serving "X" at http://h/\n');
  });
});
