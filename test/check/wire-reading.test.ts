/**
 * The pure readers `concord check` judges the wire with: SSE framing as received (rule 29), the
 * JSON-RPC response envelope (rule 11) and result shapes (rules 15-17), each naming what is wrong
 * and where.
 */
import { describe, expect, it } from 'vitest';
import { jsonRpcProblem } from '../../src/check/probes/envelope-checks.js';
import {
  timestampProblems,
  v03ShapeProblems,
  v10ShapeProblems,
} from '../../src/check/probes/shape-checks.js';
import { SseFrameReader } from '../../src/check/probes/sse-frames.js';

describe('SseFrameReader', () => {
  it('keeps data-line counts and ids, across CRLF split between chunks, ignoring comments', () => {
    const reader = new SseFrameReader();
    expect(reader.push(': heartbeat\r\n\r\nid: 1\r\ndata: {"a":1}\r')).toEqual([]);
    expect(reader.push('\n\r\ndata: {"b":\ndata: 2}\n\n')).toEqual([
      { id: '1', data: '{"a":1}', dataLines: 1 },
      { data: '{"b":\n2}', dataLines: 2 },
    ]);
  });
});

describe('jsonRpcProblem', () => {
  it('names the envelope fault', () => {
    expect(jsonRpcProblem({ jsonrpc: '2.0', id: 1, result: {} }, 1)).toBeUndefined();
    expect(jsonRpcProblem({ jsonrpc: '2.0', id: null, result: {} }, 1)).toBe(
      "id is null; the request's id was 1",
    );
    expect(jsonRpcProblem({ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: '' } }, 1)).toBe(
      'the response has both result and error',
    );
    expect(jsonRpcProblem({ jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } }, 1)).toBe(
      'error.code is not an integer',
    );
    expect(jsonRpcProblem({ id: 1, result: {} }, 1)).toBe('jsonrpc is undefined, not "2.0"');
  });
});

describe('result shapes', () => {
  it('0.3: kind on every object, lowercase states and roles', () => {
    const task = {
      kind: 'task',
      id: 't',
      status: { state: 'TASK_STATE_COMPLETED' },
      history: [{ kind: 'message', role: 'ROLE_USER', parts: [{ text: 'x' }] }],
    };
    expect(v03ShapeProblems(task, ['task']).map((p) => p.path)).toEqual([
      '/status/state',
      '/history/0/role',
      '/history/0/parts/0/kind',
    ]);
    expect(
      v03ShapeProblems({ kind: 'status-update', status: { state: 'working' } }, ['status-update']),
    ).toEqual([{ path: '/final', message: 'a 0.3 status-update carries final (boolean)' }]);
  });

  it("1.0: no kind, enum names, camelCase, one oneof member; metadata is the agent's own", () => {
    const value = {
      task: {
        kind: 'task',
        status: { state: 'completed' },
        context_id: 'c',
        metadata: { kind: 'mine', a_b: 1 },
      },
    };
    expect(v10ShapeProblems(value, ['task', 'message']).map((p) => p.path)).toEqual([
      '/task/kind',
      '/task/status/state',
      '/task/context_id',
    ]);
    expect(v10ShapeProblems({ task: {}, message: {} }, ['task', 'message'])[0]?.message).toMatch(
      /exactly one of task, message/,
    );
  });

  it('1.0 timestamps: UTC with Z only', () => {
    const ok = { status: { timestamp: '2026-01-02T03:04:05.678Z' } };
    const offset = { status: { timestamp: '2026-01-02T03:04:05+02:00' } };
    expect(timestampProblems(ok)).toEqual([]);
    expect(timestampProblems(offset).map((p) => p.path)).toEqual(['/status/timestamp']);
  });
});
