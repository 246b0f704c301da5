/**
 * Direct Message replies to keyed sends, kept for their retries (decision 0147). A send answered
 * with a task is found again through the task's idempotency key (decision 0091); a send answered
 * with a Message leaves no task, so its reply is kept in the store's ReplyStore before the client
 * gets it, and a retry gets that Message back instead of running the agent again (the dealer's
 * test drive is booked once). The only window left is a crash after the agent acted and before
 * the reply was durable: the client then had no answer, and its retry runs the agent again.
 */
import { createHash } from 'node:crypto';
import type { Message, Part } from '../../protocol/index.js';
import type { ReplyStore, TaskScope } from '../../store/internal.js';

/** The digest a retry's parts are compared by: SHA-256 of their JSON, as a task retry compares JSON. */
export function partsDigest(parts: readonly Part[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/** A reply to keep: the send's key and caller, what it asked, and what the agent answered. */
export interface ReplyToKeep {
  replies: ReplyStore;
  key: string;
  scope: TaskScope;
  request: Message;
  reply: Message;
}

/**
 * Keeps the reply and resolves with the Message to answer with: this reply, or the one another
 * instance kept first for the same retry (same key, same parts). Never rejects: when the store fails, the reply is still
 * the client's answer (withholding it would only make the client retry and the agent run again),
 * and the failure goes to `onError`.
 */
export async function keepReply(
  keeping: ReplyToKeep,
  onError: (error: unknown, where: string) => void,
): Promise<Message> {
  const { replies, key, scope, request, reply } = keeping;
  try {
    const parts = partsDigest(request.parts);
    const kept = await replies.keep({ tenant: scope.tenant, owner: scope.owner, key, parts, reply });
    // Another message under the same key won the race: this one still gets what its run answered
    // (its retries are then refused, as a reused key is).
    return kept.parts === parts ? kept.reply : reply;
  } catch (error) {
    onError(error, `keeping the reply to message ${request.messageId}`);
    return reply;
  }
}
