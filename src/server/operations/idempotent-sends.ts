/**
 * Idempotent sends (decisions 0091, 0133; A2A 1.0 §3.3.1: "a send MAY use messageId to detect
 * duplicates"). A retried `SendMessage` / `SendStreamingMessage` from the same caller with the same
 * `Idempotency-Key` header answers with the task the first attempt made instead of running the
 * agent again. Keying on `messageId` as well is an opt-in (`IdempotencyOptions.messageId`): many
 * clients recycle message ids for new messages, so by default a repeated messageId without the
 * header is a new message (decision 0133).
 *
 * Two layers, because a retry can arrive at two moments:
 * - while the first attempt is still being admitted or has not committed yet, in this process:
 *   the in-flight map hands the retry the same execution (the agent runs once);
 * - once the first attempt committed (here, in another process sharing the store, or before a
 *   restart): the store's key → task record finds the task, or, when the agent answered with a
 *   Message, the store's kept reply (decision 0147) is the answer.
 * The store keeps keys unique per caller, so when two processes race with the same key exactly
 * one task is created; the loser's commit fails with IdempotencyKeyConflictError and it answers
 * with the winner's task.
 */
import { A2AError, invalidParams, type Message, type SendMessageRequest } from '../../protocol/internal.js';
import {
  MemoryReplyStore,
  scopedIdempotencyKey,
  type KeptReply,
  type ReplyStore,
  type StoredTask,
  type TaskScope,
  type TaskStore,
} from '../../store/internal.js';
import type { CallContext } from '../call-context.js';
import type { TaskExecution } from '../task-run/task-execution.js';
import { ReleasingMap } from '../common/releasing-map.js';
import { partsDigest } from './kept-replies.js';

/** Longest `Idempotency-Key` accepted (the IETF draft leaves it open; Stripe allows 255). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** How a server recognises a retried send (`A2AServerOptions.idempotency`, decision 0133). */
export interface IdempotencyOptions {
  /**
   * Also treat a repeated `messageId` from the same caller, without an `Idempotency-Key`, as a
   * retry of the send that first used it (default false). For clients that retry with the same
   * messageId and never recycle one for a new message. Read on every send, so a getter may change
   * it while serving (the agent host's reloads do).
   */
  messageId?: boolean;
}

/**
 * What an earlier attempt of the same send left: its run in this process, its stored task, or the
 * Message it was answered with (kept-replies.ts).
 */
export type EarlierSend = { run: Promise<TaskExecution> } | { stored: StoredTask } | { reply: Message };

/** What the first attempt of a key found: the task holding it, the reply kept under it, or its own run. */
type Found = { holder: string } | { kept: KeptReply } | { run: Promise<TaskExecution> };

/**
 * The key of a send in the store: the `Idempotency-Key` header when given, else the messageId
 * when `byMessageId`, else none (the send is not deduplicated). Prefixed so a header value can
 * never collide with some other message's id.
 */
export function idempotencyKeyOf(
  message: Message,
  call: CallContext,
  byMessageId: boolean,
): string | undefined {
  const header = call.idempotencyKey;
  if (header === undefined) return byMessageId ? `m:${message.messageId}` : undefined;
  if (header.length === 0 || header.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new A2AError(
      'InvalidParamsError',
      `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, got ${header.length}`,
      { violations: [{ field: 'Idempotency-Key', description: 'empty or too long' }] },
    );
  }
  return `k:${unquoted(header)}`;
}

/**
 * The key inside an `Idempotency-Key` field. The IETF draft (draft-ietf-httpapi-idempotency-key-
 * header §2) makes the field an RFC 8941 sf-string, `"abc"`, which Concord's client sends; many
 * clients send the bare `abc`. Both name the same key, so a quoted field is unquoted (RFC 8941
 * §4.2.5: `\"` and `\\` are its only escapes) and anything else is taken as it came.
 */
function unquoted(field: string): string {
  if (field.length < 2 || !field.startsWith('"') || !field.endsWith('"')) return field;
  return field.slice(1, -1).replace(/\\([\\"])/g, '$1');
}

/** The in-flight sends of this process and the lookup of earlier ones; see the file comment. */
export class IdempotentSends {
  /**
   * Scoped key → the first attempt's look-up of an earlier one, and then the run it started;
   * removed once that run's task is committed or its reply kept (or the look-up found one).
   */
  private readonly inflight = new ReleasingMap<string, Promise<Found>>();
  /**
   * Where replies are kept (by the executions, kept-replies.ts) and found: the store's, or, for a
   * store that keeps none, this process's memory.
   */
  readonly replies: ReplyStore;

  constructor(
    private readonly store: TaskStore,
    private readonly load: (taskId: string, call: CallContext) => Promise<StoredTask>,
    private readonly options: IdempotencyOptions = {},
  ) {
    this.replies = store.replies ?? new MemoryReplyStore();
  }

  /**
   * Finds an earlier attempt of this send, or, when there is none, starts this one with `start`.
   * The first attempt registers itself before it looks in the store, and concurrent ones join it
   * (between their look at the in-flight map and the registration nothing awaits): the store is
   * asked once, the agent runs once, and no run of the key can finish in this process while a
   * look-up of it is out (a look-up that answered before the run's commit or kept reply landed
   * would start the agent again). A send without a key just starts.
   */
  async startOrFind(
    request: SendMessageRequest,
    call: CallContext,
    scope: TaskScope,
    start: (key: string | undefined) => Promise<TaskExecution>,
  ): Promise<{ started: Promise<TaskExecution>; release: () => void } | EarlierSend> {
    const key = idempotencyKeyOf(request.message, call, this.options.messageId === true);
    if (key === undefined) return { started: start(undefined), release: nothing };
    const slot = scopedIdempotencyKey(key, scope);
    const first = this.inflight.get(slot);
    if (first !== undefined) return this.earlier(await first, request, call);
    let started: Promise<TaskExecution> | undefined;
    const attempt = this.lookUp(key, scope).then((earlier): Found => {
      if (earlier !== undefined) return earlier;
      started = start(key);
      return { run: started };
    });
    this.inflight.set(slot, attempt);
    // Released once answered: by then a task's key is committed and a reply is kept (the
    // execution answers only after keeping it). A refused send leaves no trace: a later retry is
    // checked (and refused) afresh.
    const release = (): void => {
      if (this.inflight.get(slot) === attempt) this.inflight.delete(slot);
    };
    let found: Found;
    try {
      found = await attempt;
    } catch (error) {
      release();
      throw error;
    }
    if (started === undefined) {
      release();
      return this.earlier(found, request, call);
    }
    started.catch(release);
    return { started, release };
  }

  /** What an earlier attempt left, after checking this send really is a retry of it. */
  private async earlier(found: Found, request: SendMessageRequest, call: CallContext): Promise<EarlierSend> {
    if ('run' in found) return found;
    if ('kept' in found) return { reply: earlierReply(found.kept, request.message, call) };
    return { stored: await this.earlierTask(found.holder, request, call) };
  }

  /**
   * The store's record of an earlier attempt: its task's key, or its kept reply. Both look-ups at
   * once, since a new key (the usual case) needs both and on PostgreSQL each is a round trip.
   */
  private async lookUp(key: string, scope: TaskScope): Promise<Found | undefined> {
    const [holder, kept] = await Promise.all([
      this.store.findIdempotencyKey(key, scope),
      this.replies.find(key, scope),
    ]);
    if (holder !== undefined) return { holder };
    return kept === undefined ? undefined : { kept };
  }

  /** The task that holds the key, after checking the retry really is the same message. */
  async earlierTask(taskId: string, request: SendMessageRequest, call: CallContext): Promise<StoredTask> {
    const { message } = request;
    if (message.taskId !== undefined && message.taskId !== '' && message.taskId !== taskId) {
      throw reused(call, `was already used for a message to task ${taskId}`, '/message/taskId');
    }
    const stored = await this.load(taskId, call);
    const history = stored.task.history ?? [];
    const original = history.find((earlier) => earlier.messageId === message.messageId);
    // A header key names one request. A retry may come with a fresh messageId (clients rebuild the
    // message per attempt) but not with other content: a key on parts the task never received is
    // a new message under an old key (draft-ietf-httpapi-idempotency-key-header §2.6).
    if (original === undefined && call.idempotencyKey !== undefined) {
      const parts = JSON.stringify(message.parts);
      if (
        !history.some((earlier) => earlier.role === 'ROLE_USER' && JSON.stringify(earlier.parts) === parts)
      ) {
        throw reused(call, 'was already used for a message with different parts', '/message/parts');
      }
    }
    if (original !== undefined && JSON.stringify(original.parts) !== JSON.stringify(message.parts)) {
      throw reused(call, 'was already used for a message with different parts', '/message/parts');
    }
    return stored;
  }
}

function nothing(): void {}

/** The reply to the send with the same key, after checking the retry really is the same message. */
function earlierReply(earlier: KeptReply, message: Message, call: CallContext): Message {
  // Only a message that starts no task can be answered with a Message (task-execution.ts), so
  // the first attempt named no task.
  if (message.taskId !== undefined && message.taskId !== '') {
    throw reused(call, 'was already used for a message without a task', '/message/taskId');
  }
  if (partsDigest(message.parts) !== earlier.parts) {
    throw reused(call, 'was already used for a message with different parts', '/message/parts');
  }
  return earlier.reply;
}

function reused(call: CallContext, what: string, field: string): A2AError {
  const name = call.idempotencyKey === undefined ? 'messageId' : 'Idempotency-Key';
  return invalidParams(
    field,
    `${name} ${what}; a retry must repeat the original message, a new message needs a new ${name}`,
  );
}
