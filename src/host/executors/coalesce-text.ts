/**
 * Batches a stream of text deltas into artifact-sized chunks. Models emit a delta per token, often
 * several per network read; turning each into an A2A artifact update would cost one store write
 * and one SSE frame per token. Deltas arriving within a short window are joined instead
 * (docs/decisions/0013-model-executor.md "Chunk coalescing").
 */

/** One batch of text; `last` marks the final one (it may be empty when the window just closed). */
export interface TextBatch {
  text: string;
  last: boolean;
}

const FLUSH = Symbol('flush');

function raceDeadline<T>(next: Promise<T>, ms: number): Promise<T | typeof FLUSH> {
  if (ms <= 0) return Promise.resolve(FLUSH);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<typeof FLUSH>((resolve) => {
    timer = setTimeout(resolve, ms, FLUSH);
  });
  return Promise.race([next, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Yields the source's text in batches: a batch opens with the first delta after the previous one
 * was yielded and closes `windowMs` later, so a steady stream produces one chunk per window and
 * a quiet one still shows its text within `windowMs`. The final batch is held until the source
 * ends, so it can carry `last: true`.
 */
export async function* coalesceText(
  source: AsyncIterable<string>,
  windowMs: number,
): AsyncGenerator<TextBatch, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  let buffer = '';
  let deadline = 0;
  let pending: Promise<IteratorResult<string>> | undefined;
  let ended = false;
  try {
    for (;;) {
      pending ??= iterator.next();
      const result = buffer === '' ? await pending : await raceDeadline(pending, deadline - Date.now());
      if (result === FLUSH) {
        const text = buffer;
        buffer = '';
        yield { text, last: false };
        continue;
      }
      pending = undefined;
      if (result.done === true) break;
      if (buffer === '') deadline = Date.now() + windowMs;
      buffer += result.value;
    }
    ended = true;
  } finally {
    // Stopped early (consumer gone or an error): close the source without waiting, since a read
    // may still be in flight on a hung upstream; the caller's abort signal ends that read.
    if (!ended) void iterator.return?.().catch(() => undefined);
  }
  yield { text: buffer, last: true };
}
