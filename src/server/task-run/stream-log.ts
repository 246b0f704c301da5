/**
 * A task's durable event log as its streams read it: a page at a time, so what a stream holds is
 * one page, whatever the task weighs (issue 27). A stream reads the log to replay what a client
 * missed (`Last-Event-ID`, A2A 1.0 §3.1.6), to catch up after the hub cut it off for falling
 * behind, and on a cluster to fill a gap between another instance's events (decision 0111).
 */
import type { TaskEventRecord } from '../../store/index.js';
import { eventWeight, type HubSubscription } from './event-hub.js';

/** The log of one task in one caller's scope, and a way to listen to it live. */
export interface StreamLog {
  /** Up to `limit` events after `after`, in order (TaskStore `readEvents`). */
  read(after: number, limit: number): Promise<TaskEventRecord[]>;
  /** A fresh live subscription to the task (HandlerContext `subscribe`). */
  subscribe(): HubSubscription;
  /**
   * True on a cluster, where events committed elsewhere reach the hub through a follower that may
   * skip ahead, so a live stream fills gaps from the log.
   */
  readonly fillsGaps: boolean;
}

/** Part content one page should hold, roughly (`eventWeight`). */
const PAGE_BYTES = 4 * 1024 * 1024;
/** The first page's length, before the events' weight is known. */
const FIRST_PAGE = 16;
/** The longest page: small events are cheap, but one read should not hold a task's whole log. */
const MAX_PAGE = 512;

/**
 * The events after `after` and before `before` (when given), read a page at a time until the log
 * has no more. Each page's length follows the weight of the last one, so a log of 1 MB artifact
 * chunks is read a few events at a time and one of status messages hundreds at a time.
 */
export async function* logRecords(
  log: StreamLog,
  after: number,
  before = Number.POSITIVE_INFINITY,
  signal?: AbortSignal,
): AsyncGenerator<TaskEventRecord> {
  let last = after;
  let limit = FIRST_PAGE;
  while (signal?.aborted !== true) {
    const page = await log.read(last, limit);
    const from = last;
    let bytes = 0;
    for (const record of page) {
      if (record.seq <= last) continue;
      if (record.seq >= before) return;
      last = record.seq;
      bytes += eventWeight(record.event);
      yield record;
    }
    // A short page is the end of the log as it was when read; a page that did not move on (a store
    // that answered with what was already read) ends it too, rather than asking again forever.
    if (page.length < limit || last === from) return;
    const average = Math.max(1, bytes / page.length);
    limit = Math.max(1, Math.min(MAX_PAGE, Math.floor(PAGE_BYTES / average)));
  }
}
