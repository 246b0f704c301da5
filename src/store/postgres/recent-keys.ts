/**
 * Idempotency keys this process committed while key lookups were in flight. A lookup is a query
 * on another connection; its snapshot can predate a keyed commit that completes (and resolves, in
 * this process) before the lookup's answer arrives. The server's in-flight map of sends (decision
 * 0091) lets go of a send once its commit resolved, so a lookup that then answered "no such key"
 * would start the agent a second time. Here such a lookup finds the key after all: each lookup
 * remembers how many keyed commits had resolved when it started, and sees every one resolved
 * since. Entries are kept only while a lookup that started before them is still running.
 *
 * `T` is what a key names: a task id for the task store, a kept reply for the reply store
 * (decision 0147), whose `keep` has the same race with `find`.
 */
export class RecentKeys<T = string> {
  /** Scoped key → what it names, with the number of the keyed write that recorded it (increasing). */
  private readonly keys = new Map<string, { value: T; seq: number }>();
  /** Start marks of the lookups in flight. */
  private readonly lookups = new Set<{ since: number }>();
  private seq = 0;

  /** Records a keyed commit that just completed (only if a lookup could have missed it). */
  committed(scopedKey: string, value: T): void {
    this.seq++;
    if (this.lookups.size === 0) return;
    // Re-inserted at the end, so the map stays in commit order.
    this.keys.delete(scopedKey);
    this.keys.set(scopedKey, { value, seq: this.seq });
  }

  /** Runs a lookup; when the store found nothing, a key committed since it started is the answer. */
  async lookup(scopedKey: string, query: () => Promise<T | undefined>): Promise<T | undefined> {
    const mark = { since: this.seq };
    this.lookups.add(mark);
    try {
      const found = await query();
      if (found !== undefined) return found;
      const recent = this.keys.get(scopedKey);
      return recent !== undefined && recent.seq > mark.since ? recent.value : undefined;
    } finally {
      this.lookups.delete(mark);
      this.prune();
    }
  }

  /** Drops the entries no running lookup started before. */
  private prune(): void {
    let oldest = Infinity;
    for (const mark of this.lookups) oldest = Math.min(oldest, mark.since);
    for (const [key, entry] of this.keys) {
      if (entry.seq > oldest) break;
      this.keys.delete(key);
    }
  }
}
