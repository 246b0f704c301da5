/**
 * The PostgreSQL TaskStore, for several Concord instances sharing one database (DESIGN.md,
 * decision 0100). Every commit is one statement (commit-statements.ts), or one transaction when it
 * carries push configs; reads are single statements. Nothing is cached in the process, so every
 * instance sees every acknowledged commit of every other instance.
 */
import type { Task } from '../../protocol/model.js';
import { planList } from '../list-plan.js';
import { retentionCutoffKey, RetentionTimer, type RetentionOptions } from '../retention.js';
import { replyMaxAge } from '../reply-store.js';
import { checkPushConfig } from '../push-rules.js';
import { taskStatusKey } from '../status-time.js';
import {
  IdempotencyKeyConflictError,
  VersionConflictError,
  type StoredTask,
  type StoredTaskHead,
  type TaskCommit,
  type TaskEventRecord,
  type TaskPage,
  type TaskQuery,
  type TaskReadOptions,
  type TaskScope,
  type TaskStore,
  scopedIdempotencyKey,
  visibleIn,
} from '../task-store.js';
import {
  commitStatement,
  HEAD_STATEMENT,
  IDEMPOTENCY_KEY_CONSTRAINT,
  UPSERT_CONFIG,
  type CommitRow,
} from './commit-statements.js';
import type { Database } from './database.js';
import { runListPlan } from './list-query.js';
import {
  APART_COLUMNS,
  apartTask,
  SPLIT_COLUMNS,
  wholeTask,
  type ApartColumns,
  type SplitColumns,
  UPDATE_BATCH,
} from './split-rows.js';
import { PostgresApprovalStore } from './postgres-approval-store.js';
import { PostgresEvidenceStore } from './postgres-evidence-store.js';
import { configParams, traceContextColumn } from '../sql/push-rows.js';
import { PostgresPushStore } from './postgres-push-store.js';
import { PostgresReplyStore } from './postgres-reply-store.js';
import { capCutoff, deleteFinishedBefore } from './postgres-retention.js';
import { RecentKeys } from './recent-keys.js';
import { SplitHints } from './split-hints.js';
import {
  moreRows,
  SPLIT_BYTES,
  splitRows,
  taskAfterRows,
  type ArtifactUpdate,
  type PartRows,
} from '../heavy-tasks.js';
import { MIGRATIONS_TABLE } from './migrate.js';
import { POSTGRES_SCHEMA_VERSION } from './schema.js';

const CLOSED = 'task store is closed';

/**
 * `get` in one statement, so a split task's head and rows (heavy-tasks.ts, decision 0164) are read
 * as of one moment: the newest $2 history messages and every artifact update, or nulls while the
 * task is whole in its row.
 */
const GET_STATEMENT = `SELECT t.tenant, t.owner, t.version, t.snapshot, ${SPLIT_COLUMNS.replace('$LIMIT', '$2::integer')}
  FROM tasks t WHERE t.id = $1`;

/** `get` with the artifacts apart (TaskReadOptions `artifactsApart`, decision 0172). */
const GET_APART_STATEMENT = `SELECT t.tenant, t.owner, t.version, t.snapshot, ${APART_COLUMNS.replace('$LIMIT', '$2::integer')}
  FROM tasks t WHERE t.id = $1`;

interface TaskRow {
  tenant: string;
  owner: string;
  version: number;
  snapshot: Task;
}

/** A TaskStore on a PostgreSQL pool; see the file comment. Open it with `openPostgresStore`. */
export class PostgresTaskStore implements TaskStore {
  /** The schema versions found and left at open (TaskStore `schemaMigration`; set by openPostgresStore). */
  schemaMigration: { readonly from: number; readonly to: number } | undefined;
  /** Approvals in the same database, closed with this store. */
  readonly approvals: PostgresApprovalStore;
  /** Evidence chains in the same database, closed with this store. */
  readonly evidence: PostgresEvidenceStore;
  /** Push configs and their outbox; deliveries are queued by each commit. */
  readonly push: PostgresPushStore;
  /** Direct Message replies of keyed sends, in the same schema (decision 0147). */
  readonly replies: PostgresReplyStore;
  private readonly retention: RetentionTimer | undefined;
  /** The last commit of each task still in progress (see `commit`). */
  private readonly tails = new Map<string, Promise<void>>();
  private closing = false;
  /** Where this process's recent commits left their tasks' rows (split-hints.ts, decision 0164). */
  private readonly splits = new SplitHints();
  /** Keys committed while lookups ran, so a lookup never misses a commit resolved before it. */
  private readonly recentKeys = new RecentKeys();

  constructor(
    private readonly db: Database,
    /** The schema the store's tables live in. */
    readonly schema: string,
    /** Deletes expired terminal tasks, and those past a count, on a timer (decisions 0103, 0151); off when absent. */
    retention?: RetentionOptions,
  ) {
    this.approvals = new PostgresApprovalStore(db);
    this.evidence = new PostgresEvidenceStore(db);
    this.push = new PostgresPushStore(db);
    this.replies = new PostgresReplyStore(db, replyMaxAge(retention?.maxAgeMs));
    this.retention = retention === undefined ? undefined : new RetentionTimer(this, retention);
  }

  /**
   * Deletes terminal tasks whose status is older than `maxAgeMs` at `now` (epoch ms), with their
   * events, push configs, dead letters and idempotency keys; a task with a pending delivery stays.
   * Kept replies that old, or past their own max age, go too (decision 0147). Returns how many
   * tasks were deleted. The retention timer calls this; it can also be called on demand.
   */
  async deleteExpiredTasks(maxAgeMs: number, now: number = Date.now()): Promise<number> {
    const tasks = await deleteFinishedBefore(this.db, retentionCutoffKey(maxAgeMs, now), () => this.closing);
    await this.replies.deleteExpired(maxAgeMs, now);
    return tasks;
  }

  /**
   * Deletes the terminal tasks past the `maxTasks` most recently finished (those that finished at
   * the same instant as the last one kept stay too), as `deleteExpiredTasks` deletes: a task with a
   * pending delivery stays. Returns how many tasks were deleted. Each instance counts only against
   * the database, so instances sweeping at once never take the store below the cap.
   */
  async deleteTasksOverCap(maxTasks: number): Promise<number> {
    const cutoff = await capCutoff(this.db, maxTasks);
    return cutoff === undefined ? 0 : deleteFinishedBefore(this.db, cutoff, () => this.closing);
  }

  /**
   * Commits of this process to the same task run one after the other, in the order they were
   * made (as the TaskStore port promises: a runner may queue its next commit without waiting).
   * On a pool they would otherwise race on two connections. Other processes' commits are ordered
   * by the version check alone.
   */
  commit(commit: TaskCommit): Promise<number> {
    if (this.closing) return Promise.reject(new Error(CLOSED));
    const id = commit.task.id;
    const previous = this.tails.get(id);
    const run = previous === undefined ? this.commitNow(commit) : previous.then(() => this.commitNow(commit));
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(id, tail);
    // Counted once written, so the sweep it may start sees it.
    if (commit.expectedVersion === 0 && this.retention !== undefined) {
      const retention = this.retention;
      void run.then(() => retention.taskCreated(), noop);
    }
    void tail.then(() => {
      if (this.tails.get(id) === tail) this.tails.delete(id);
    });
    return run;
  }

  private async commitNow(commit: TaskCommit): Promise<number> {
    try {
      return await this.write(commit);
    } catch (error) {
      if (!isKeyConflict(error)) throw error;
      // Another task holds the key: the statement was undone whole; name the holder.
      const key = commit.idempotencyKey!;
      const holder = await this.findIdempotencyKey(key, commit);
      // Gone again already (its task expired meanwhile): the key is free, so try once more.
      if (holder === undefined) return this.write(commit);
      throw new IdempotencyKeyConflictError(holder, key);
    }
  }

  private async write(commit: TaskCommit, withWhole = false): Promise<number> {
    const { task, expectedVersion, events, tenant, owner, pushConfigs } = commit;
    if (events.length === 0) throw new Error(`commit of task ${task.id} carries no events`);
    // Where the task's rows stand (decision 0164): a hint this process kept, or the row's own.
    const base = expectedVersion === 0 ? null : await this.splitBase(task.id, expectedVersion);
    // Serialised before any round trip: a value JSON cannot hold fails its own commit only.
    const eventTexts = events.map((event) => JSON.stringify(event));
    let snapshot: string;
    let parts: PartRows | undefined;
    // The whole task's text, for the outbox of a split task with push configs (see UPDATE).
    let whole: string | null = null;
    if ((commit.historyFrom ?? 0) > 0 && base === null) {
      // Only part of the history, for a task that is whole here: built on some other task.
      throw new VersionConflictError(task.id, expectedVersion, expectedVersion);
    }
    if (base !== null) {
      const more = moreRows(task, base, events, eventTexts, commit.historyFrom);
      if (more === undefined) throw new VersionConflictError(task.id, expectedVersion, expectedVersion);
      parts = more;
      snapshot = parts.head;
      if (withWhole) whole = JSON.stringify(await this.wholeAfter(commit, parts));
    } else {
      snapshot = JSON.stringify(task);
      if (snapshot.length > SPLIT_BYTES) {
        whole = snapshot;
        parts = splitRows(task);
        snapshot = parts.head;
      }
    }
    const eventsJson = `[${eventTexts.join(',')}]`;
    const version = expectedVersion + events.length;
    const historyRows = parts === undefined ? null : parts.historyFrom + parts.history.length;
    const artifactRows = parts === undefined ? null : parts.artifactsFrom + parts.artifactUpdates.length;
    const values = [
      task.id,
      expectedVersion,
      task.contextId,
      task.status.state,
      taskStatusKey(task.status.timestamp),
      version,
      snapshot,
      tenant,
      owner,
      eventsJson,
      new Date().toISOString(),
      commit.idempotencyKey ?? null,
      traceContextColumn(commit.traceContext),
      base?.history ?? null,
      historyRows,
      artifactRows,
      parts === undefined ? '[]' : `[${parts.history.join(',')}]`,
      parts === undefined ? '[]' : `[${parts.artifactUpdates.join(',')}]`,
      parts?.historyFrom ?? 0,
      parts?.artifactsFrom ?? 0,
      whole,
    ];
    const statement = commitStatement(values, expectedVersion === 0);
    let row: CommitRow;
    if (pushConfigs === undefined || pushConfigs.length === 0) {
      row = (await this.db.query<CommitRow>(statement, CLOSED)).rows[0]!;
    } else {
      const configs = pushConfigs.map(checkPushConfig);
      // The configs first, in the same transaction, so the commit's own outbox entries include
      // them; a commit that loses its version check rolls them back with it.
      const lost = new Error('version check failed');
      try {
        row = await this.db.transaction(CLOSED, async (client) => {
          for (const config of configs) await client.query(UPSERT_CONFIG, configParams(config));
          const result = (await client.query<CommitRow>(statement)).rows[0]!;
          // Thrown to roll the configs back; reported below, once the connection is released.
          if (result.written === 0) throw lost;
          return result;
        });
      } catch (error) {
        if (error !== lost) throw error;
        // Refused as one without configs would be, and answered below the same way: a split task's
        // commit that needs its whole text is written again with it, not reported as stale (a
        // run that rebased would only build the same commit again).
        row = { written: 0, queued: 0 };
      }
    }
    if (row.written === 0) {
      const conflict = await this.conflict(commit);
      this.splits.delete(task.id);
      // Not stale: a split task's commit that needs its whole text for push configs (UPDATE).
      if (!withWhole && parts !== undefined && whole === null && conflict.sameBase(base?.history ?? null)) {
        return this.write(commit, true);
      }
      throw conflict.error;
    }
    this.splits.remember(task.id, version, historyRows, artifactRows, task.status.state);
    if (commit.idempotencyKey !== undefined) {
      this.recentKeys.committed(scopedIdempotencyKey(commit.idempotencyKey, commit), task.id);
    }
    if (row.queued > 0) this.push.notify();
    return version;
  }

  async get(taskId: string, scope: TaskScope, options?: TaskReadOptions): Promise<StoredTask | undefined> {
    // No stored text holds NUL (PostgreSQL refuses it), so such a name matches nothing.
    if (hasNul(taskId, scope.tenant, scope.owner)) return undefined;
    if (options?.artifactsApart === true) return this.getApart(taskId, scope, options.historyLength);
    const { rows } = await this.db.query<TaskRow & SplitColumns>(
      {
        name: 'concord-get',
        text: GET_STATEMENT,
        values: [taskId, options?.historyLength ?? MAX_SEQ],
      },
      CLOSED,
    );
    const row = rows[0];
    // Invisible reads as absent, so existence never leaks (A2A 1.0 §13.1).
    if (row === undefined || !visibleIn(row, scope)) return undefined;
    return { tenant: row.tenant, owner: row.owner, version: row.version, task: wholeTask(row) };
  }

  private async getApart(
    taskId: string,
    scope: TaskScope,
    historyLength: number | undefined,
  ): Promise<StoredTask | undefined> {
    const { rows } = await this.db.query<TaskRow & ApartColumns>(
      { name: 'concord-get-apart', text: GET_APART_STATEMENT, values: [taskId, historyLength ?? MAX_SEQ] },
      CLOSED,
    );
    const row = rows[0];
    if (row === undefined || !visibleIn(row, scope)) return undefined;
    return Object.assign(
      { tenant: row.tenant, owner: row.owner, version: row.version },
      apartTask(row, async (numbers) => {
        const batch = await this.db.query<{ n: number; event: ArtifactUpdate }>(
          { name: 'concord-artifact-rows', text: UPDATE_BATCH, values: [taskId, numbers] },
          CLOSED,
        );
        return new Map(batch.rows.map((r) => [r.n, r.event]));
      }),
    );
  }

  async head(taskId: string, scope: TaskScope): Promise<StoredTaskHead | undefined> {
    if (hasNul(taskId, scope.tenant, scope.owner)) return undefined;
    const { rows } = await this.db.query<StoredTaskHead>(
      {
        name: 'concord-head',
        text: 'SELECT tenant, owner, version, state FROM tasks WHERE id = $1',
        values: [taskId],
      },
      CLOSED,
    );
    const row = rows[0];
    if (row === undefined || !visibleIn(row, scope)) return undefined;
    return row;
  }

  async readEvents(
    taskId: string,
    afterSeq: number,
    scope: TaskScope,
    limit?: number,
  ): Promise<TaskEventRecord[]> {
    if (hasNul(taskId, scope.tenant, scope.owner)) return [];
    // As the memory store reads it: whole numbers, NaN as 0; past the integer column, nothing.
    const after = Number.isNaN(afterSeq) ? 0 : Math.max(0, Math.floor(afterSeq));
    if (after >= MAX_SEQ) return [];
    const { rows } = await this.db.query<{ seq: number; event: TaskEventRecord['event'] }>(
      {
        name: 'concord-read-events',
        text: `SELECT e.seq, e.event FROM tasks t JOIN task_events e ON e.task_id = t.id
                WHERE t.id = $1 AND e.seq > $2 AND t.tenant = $3 AND (t.owner = '' OR t.owner = $4)
                ORDER BY e.seq LIMIT $5`,
        // LIMIT NULL is no limit.
        values: [
          taskId,
          after,
          scope.tenant,
          scope.owner,
          limit === undefined ? null : Math.max(0, Math.floor(limit)),
        ],
      },
      CLOSED,
    );
    return rows.map((row) => ({ seq: row.seq, event: row.event }));
  }

  findIdempotencyKey(key: string, scope: TaskScope): Promise<string | undefined> {
    if (hasNul(key, scope.tenant, scope.owner)) return Promise.resolve(undefined);
    return this.recentKeys.lookup(scopedIdempotencyKey(key, scope), async () => {
      const { rows } = await this.db.query<{ task_id: string }>(
        {
          name: 'concord-find-key',
          text: 'SELECT task_id FROM idempotency_keys WHERE tenant = $1 AND owner = $2 AND key = $3',
          values: [scope.tenant, scope.owner, key],
        },
        CLOSED,
      );
      return rows[0]?.task_id;
    });
  }

  async list(query: TaskQuery): Promise<TaskPage> {
    const plan = planList(query);
    if (hasNul(plan.tenant, plan.owner, plan.contextId ?? ''))
      return { tasks: [], nextPageToken: '', totalSize: 0 };
    return runListPlan(plan, (statement) => this.db.query(statement, CLOSED));
  }

  /** Readiness (decision 0158): the database answers, and the schema is at this Concord's version. */
  async ping(): Promise<void> {
    const { rows } = await this.db.query<{ v: number | null }>(
      { text: `SELECT max(version) AS v FROM ${this.schema}.${MIGRATIONS_TABLE}` },
      CLOSED,
    );
    const found = rows[0]?.v ?? 0;
    if (found !== POSTGRES_SCHEMA_VERSION) {
      throw new Error(
        `schema ${this.schema} is at version ${found}, this Concord needs ${POSTGRES_SCHEMA_VERSION}`,
      );
    }
  }

  /** Waits for the work in flight, then closes the pool (and with it the sub-stores). */
  async close(): Promise<void> {
    this.closing = true;
    await this.retention?.stop();
    // Commits waiting behind another of their task were made before close: they go in too.
    while (this.tails.size > 0) await Promise.all(this.tails.values());
    await this.db.close();
  }

  /**
   * Why a commit wrote nothing: the VersionConflictError naming the version it ran into, and
   * whether the row was as the commit saw it (then the push-config guard of UPDATE refused it).
   */
  private async conflict(
    commit: TaskCommit,
  ): Promise<{ error: VersionConflictError; sameBase(history: number | null): boolean }> {
    const { rows } = await this.db.query<Omit<TaskRow, 'snapshot'> & { history_rows: number | null }>(
      { name: 'concord-head', text: HEAD_STATEMENT, values: [commit.task.id] },
      CLOSED,
    );
    const head = rows[0];
    // A task the writer may not see counts as absent, as for `get`; a create still fails on it,
    // since the id is taken.
    const visible = head !== undefined && visibleIn(head, commit);
    const actual = head !== undefined && (commit.expectedVersion === 0 || visible) ? head.version : 0;
    return {
      error: new VersionConflictError(commit.task.id, commit.expectedVersion, actual),
      sameBase: (history) => visible && actual === commit.expectedVersion && head.history_rows === history,
    };
  }

  /**
   * The whole task after a split task's commit, read back from its rows: the commit's own task may
   * carry only what changed, once the server sheds what the rows keep (keepsArtifactUpdates).
   * Read before the commit's statement, which checks the version again.
   */
  private async wholeAfter(commit: TaskCommit, parts: PartRows): Promise<Task> {
    const before = await this.get(commit.task.id, commit);
    if (before?.version !== commit.expectedVersion) {
      throw new VersionConflictError(commit.task.id, commit.expectedVersion, before?.version ?? 0);
    }
    return taskAfterRows(before.task, parts);
  }

  /** See TaskStore `keepsArtifactUpdates`: once the task is split (decision 0164). */
  async keepsArtifactUpdates(taskId: string): Promise<boolean> {
    if (hasNul(taskId)) return false;
    return (await this.rowsOf(taskId)) !== null;
  }

  /** The split rows of a task at `version`, or null while it is whole (SplitHints, then the row). */
  private async splitBase(
    taskId: string,
    version: number,
  ): Promise<{ history: number; artifacts: number } | null> {
    const hint = this.splits.at(taskId, version);
    return hint !== undefined ? hint : this.rowsOf(taskId);
  }

  /** The split rows of a task as its row has them, or null while it is whole or absent. */
  private async rowsOf(taskId: string): Promise<{ history: number; artifacts: number } | null> {
    const { rows } = await this.db.query<{ history_rows: number | null; artifact_rows: number | null }>(
      {
        name: 'concord-split-base',
        text: 'SELECT history_rows, artifact_rows FROM tasks WHERE id = $1',
        values: [taskId],
      },
      CLOSED,
    );
    const row = rows[0];
    if (row === undefined || row.history_rows === null) return null;
    return { history: row.history_rows, artifacts: row.artifact_rows ?? 0 };
  }
}

function noop(): void {}

/** The largest `integer` (int4): sequence numbers never exceed it. */
const MAX_SEQ = 2 ** 31 - 1;

/** True when a value holds NUL, which PostgreSQL text cannot (so it names nothing stored). */
function hasNul(...values: string[]): boolean {
  return values.some((value) => value.includes('\u0000'));
}

/** True for the error of a commit whose idempotency key another task holds (commit-statements.ts). */
function isKeyConflict(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown };
  // 23505: unique_violation.
  return e?.code === '23505' && e.constraint === IDEMPOTENCY_KEY_CONSTRAINT;
}
