/**
 * The store-neutral rules of the PushStore port: the dead-letter list cursor and page size, and
 * the check of a config record. Every store applies them through here, so memory and SQLite (and
 * later stores) accept, refuse and page alike (house style 7).
 */
import { invalidParams } from '../protocol/errors.js';
import { DEFAULT_DEAD_LETTER_PAGE_SIZE, type DeadLetterQuery, type PushConfigRecord } from './push-store.js';

/** The largest dead-letter page. */
export const MAX_DEAD_LETTER_PAGE_SIZE = 500;

/** A checked dead-letter query: start strictly after `afterId`. */
export interface DeadLetterPlan {
  pageSize: number;
  afterId: number;
}

/** Checks paging and decodes the cursor; anything this store did not issue is InvalidParams. */
export function planDeadLetterList(query: DeadLetterQuery = {}): DeadLetterPlan {
  const pageSize = query.pageSize ?? DEFAULT_DEAD_LETTER_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_DEAD_LETTER_PAGE_SIZE) {
    throw invalidParams('/pageSize', `must be an integer from 1 to ${MAX_DEAD_LETTER_PAGE_SIZE}`);
  }
  const token = query.pageToken ?? '';
  if (token === '') return { pageSize, afterId: 0 };
  const match = /^d(\d{1,15})$/.exec(token);
  if (match === null) throw invalidParams('/pageToken', 'is not a page token issued by this store');
  return { pageSize, afterId: Number(match[1]) };
}

/** The cursor of the page that ends with dead letter `id`. */
export function encodeDeadLetterToken(id: number): string {
  return `d${id}`;
}

/** Checks the fields every store relies on; a TypeError names the first bad one. */
export function checkPushConfig(config: PushConfigRecord): PushConfigRecord {
  for (const key of ['taskId', 'id', 'url', 'protocolVersion', 'createdAt'] as const) {
    if (typeof config[key] !== 'string' || config[key] === '') {
      throw new TypeError(`push config: ${key} must be a non-empty string`);
    }
  }
  if (typeof config.tenant !== 'string') throw new TypeError('push config: tenant must be a string');
  const copy: PushConfigRecord = {
    taskId: config.taskId,
    id: config.id,
    tenant: config.tenant,
    url: config.url,
    protocolVersion: config.protocolVersion,
    createdAt: config.createdAt,
  };
  if (config.authScheme !== undefined) copy.authScheme = config.authScheme;
  if (config.sealedSecrets !== undefined) copy.sealedSecrets = config.sealedSecrets;
  return copy;
}
