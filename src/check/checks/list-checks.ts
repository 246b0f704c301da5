/**
 * ListTasks on a 1.0 interface (rules 26, 27, 60): the always-present fields, newest-updated
 * first, cursor pagination, artifacts only when asked for, the pageSize bound and the contextId /
 * status / statusTimestampAfter filters (A2A 1.0 §3.1.4). Over REST the same values travel in the
 * query (rule 60). Run after the task rules, so the agent holds at least the tasks they created.
 */
import type { ListTasksResponse, Task } from '../../protocol/index.js';
import type { CheckContext } from '../probes/check-context.js';
import { describeError, isError } from '../probes/error-checks.js';
import type { ProbeTarget } from '../probes/probe-targets.js';
import { judgeShape } from '../probes/judging.js';
import { WireProbe, type Exchange, type WireError } from '../probes/wire-probe.js';

type Query = Record<string, string | number | boolean>;

interface Listed {
  page?: ListTasksResponse;
  /** The error, when the caller accepts one (`rule` undefined). */
  error?: WireError;
  raw?: unknown;
  exchange: Exchange;
  evidence: (expected: string) => { where: string; expected: string; sent: string; received: string };
}

async function list(
  ctx: CheckContext,
  target: ProbeTarget,
  query: Query,
  rule: number | undefined,
): Promise<Listed> {
  const probe = ctx.probe(target);
  const request = probe.listRequest(query);
  const id = target.binding === 'JSONRPC' ? (JSON.parse(request.body!) as { id: number }).id : undefined;
  const { exchange, reading } = await ctx.call(target, request, id);
  const evidence = (expected: string) => ({ where: target.label, expected, ...WireProbe.evidence(exchange) });
  if (reading.kind !== 'result') {
    if (rule === undefined)
      return { exchange, evidence, ...(reading.kind === 'error' ? { error: reading.error } : {}) };
    ctx.recorder.fail(
      rule,
      evidence(
        `ListTasks ${JSON.stringify(query)} answers a page${reading.kind === 'error' ? `, got ${describeError(reading.error)}` : ''}`,
      ),
    );
    if (target.binding === 'HTTP+JSON' && Object.keys(query).length > 0)
      ctx.recorder.fail(60, evidence('GET /tasks takes its parameters in the query'));
    return { exchange, evidence };
  }
  const page = judgeShape(ctx, target, exchange, reading.value, { v03: [] }, (v) =>
    probe.codec.decodeListTasksResponse(v, ''),
  );
  if (target.binding === 'HTTP+JSON' && Object.keys(query).length > 0) ctx.recorder.pass(60);
  return page === undefined
    ? { raw: reading.value, exchange, evidence }
    : { page, raw: reading.value, exchange, evidence };
}

function newestFirst(tasks: Task[]): boolean {
  const times = tasks.map((t) => Date.parse(t.status.timestamp ?? '')).filter((t) => !Number.isNaN(t));
  return times.every((t, i) => i === 0 || t <= times[i - 1]!);
}

/** Rules 26, 27 and 60 on a 1.0 interface, around `task` (the task the text created). */
export async function checkListTasks(
  ctx: CheckContext,
  target: ProbeTarget,
  task: Task | undefined,
): Promise<void> {
  const rec = ctx.recorder;
  const facts = ctx.facts(target);
  const all = await list(ctx, target, {}, 26);
  facts.core.set('list', all.page !== undefined);
  ctx.outcome(
    target,
    'list',
    all.page === undefined ? { kind: 'other', problem: '' } : { kind: 'result', value: null },
  );
  if (all.page === undefined) return;
  const raw: Record<string, unknown> =
    typeof all.raw === 'object' && all.raw !== null ? (all.raw as Record<string, unknown>) : {};
  const missing = ['tasks', 'nextPageToken', 'pageSize', 'totalSize'].filter((k) => !(k in raw));
  rec.expect(26, missing.length === 0, () =>
    all.evidence(
      `tasks, nextPageToken, pageSize and totalSize are always present; missing ${missing.join(', ')}`,
    ),
  );
  if ('tasks' in raw)
    rec.expect(26, Array.isArray(raw.tasks), () => all.evidence('tasks is a list of Task objects'));
  rec.expect(26, newestFirst(all.page.tasks), () =>
    all.evidence('tasks are sorted by status timestamp, newest first'),
  );
  // Read from the answer as sent: a `tasks` that is missing or no list is rule 26's finding above.
  const rawTasks: unknown[] = Array.isArray(raw.tasks) ? raw.tasks : [];
  const withArtifacts = rawTasks.filter((t) => typeof t === 'object' && t !== null && 'artifacts' in t);
  rec.expect(27, withArtifacts.length === 0, () =>
    all.evidence('artifacts are left out unless includeArtifacts=true'),
  );

  const one = await list(ctx, target, { pageSize: 1 }, 26);
  if (one.page !== undefined) {
    const page = one.page;
    rec.expect(26, page.tasks.length <= 1, () =>
      one.evidence(`pageSize=1 returns at most one task, got ${page.tasks.length}`),
    );
    if (page.totalSize > 1) {
      rec.expect(26, page.nextPageToken !== '', () =>
        one.evidence(`totalSize ${page.totalSize} > 1 with pageSize=1 needs a nextPageToken`),
      );
      if (page.nextPageToken !== '') {
        const next = await list(ctx, target, { pageSize: 1, pageToken: page.nextPageToken }, 26);
        if (next.page !== undefined) {
          const repeated = next.page.tasks.some((t) => page.tasks.some((p) => p.id === t.id));
          rec.expect(26, next.page.tasks.length === 1 && !repeated, () =>
            next.evidence('the next page holds the next task, not the same one'),
          );
        }
      }
    } else if (page.tasks.length <= page.totalSize) {
      rec.expect(26, page.nextPageToken === '', () => one.evidence('nextPageToken is "" on the last page'));
    }
  }
  // "Enforces pageSize between 1 and 100": refusing 101 with InvalidParams, or capping it, both do.
  const big = await list(ctx, target, { pageSize: 101 }, undefined);
  const enforced =
    big.page !== undefined
      ? big.page.tasks.length <= 100 && big.page.pageSize <= 100
      : isError(big.error, 'InvalidParamsError');
  rec.expect(27, enforced, () =>
    big.evidence('pageSize=101 is refused with InvalidParamsError or capped at 100'),
  );

  if (task === undefined) {
    rec.skip(27, 'the filters need a task; the agent answered with a Message');
    return;
  }
  const byContext = await list(ctx, target, { contextId: task.contextId, includeArtifacts: true }, 27);
  if (byContext.page !== undefined) {
    const tasks = byContext.page.tasks;
    rec.expect(
      27,
      tasks.every((t) => t.contextId === task.contextId) && tasks.some((t) => t.id === task.id),
      () =>
        byContext.evidence(
          `contextId=${task.contextId} returns the tasks of that context, ${task.id} among them`,
        ),
    );
    const mine = tasks.find((t) => t.id === task.id);
    if (mine !== undefined && (task.artifacts?.length ?? 0) > 0)
      rec.expect(27, (mine.artifacts?.length ?? 0) > 0, () =>
        byContext.evidence('includeArtifacts=true returns the artifacts'),
      );
  }
  const state = task.status.state;
  const byState = await list(ctx, target, { status: state }, 27);
  if (byState.page !== undefined)
    rec.expect(
      27,
      byState.page.tasks.every((t) => t.status.state === state),
      () => byState.evidence(`status=${state} returns only ${state} tasks`),
    );
  const future = new Date(Date.now() + 86_400_000).toISOString();
  const later = await list(ctx, target, { statusTimestampAfter: future }, 27);
  if (later.page !== undefined)
    rec.expect(27, later.page.tasks.length === 0, () =>
      later.evidence(`statusTimestampAfter=${future} (tomorrow) returns no task`),
    );
}
