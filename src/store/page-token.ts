/**
 * ListTasks cursors (A2A 1.0 §3.1.4). The token is opaque to clients; inside it is the sort key
 * of the last task on the page, so the next page starts strictly after it (keyset pagination).
 * Unlike offsets, such cursors stay valid when tasks are added or move up the list meanwhile.
 */
import { invalidParams } from '../protocol/errors.js';
import { STATUS_TIME_KEY } from './status-time.js';

/** A position in the list order: newest status first, then task id descending. */
export interface ListCursor {
  /** Status time key (see status-time.ts). */
  statusKey: string;
  taskId: string;
}

/** Encodes the position after which the next page starts. */
export function encodePageToken(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.statusKey, cursor.taskId]), 'utf8').toString('base64url');
}

/** Decodes a client's page token; anything this store did not issue is InvalidParams. */
export function decodePageToken(token: string): ListCursor {
  let parsed: unknown;
  try {
    // Buffer's base64url decoder skips bad characters instead of failing, so check the alphabet.
    if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalidParams('/pageToken', 'is not a page token issued by this server');
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== 'string' ||
    typeof parsed[1] !== 'string' ||
    !STATUS_TIME_KEY.test(parsed[0]) ||
    parsed[1] === ''
  ) {
    throw invalidParams('/pageToken', 'is not a page token issued by this server');
  }
  return { statusKey: parsed[0], taskId: parsed[1] };
}
