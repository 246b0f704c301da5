/**
 * Work on responses deferred to the check phase that follows the I/O that produced them, once per
 * event-loop turn (docs/performance.md, 'End-of-turn writes'): the node adapter writes the turn's
 * plain responses together, and uncorks the streams that wrote during the turn.
 *
 * Why: a response written the moment it is ready wakes its reader once per response. When the
 * reader is asleep on another core (a co-located client, a sidecar, another agent on the host, the
 * benchmark's load generator), each wake-up is an inter-processor interrupt, which a virtual
 * machine pays for with an exit on the writing side. Measured on the benchmark machine: about one
 * such interrupt per request written at once, about one per fifteen requests written per turn,
 * and 22-30% more requests per second for the in-memory store (docs/performance.md, 'End-of-turn
 * writes'). Responses that are ready in the same turn go out back to back, so the reader is usually
 * still awake for all but the first.
 *
 * The cost is the rest of the current turn: a response waits until the turn's other I/O callbacks
 * ran, never for a timer. One made in a check phase itself (after a store's group commit) goes
 * out in the next turn's check phase. Order per connection is kept: node:http queues each
 * connection's responses itself, and this queue is first in, first out.
 */
import type { ServerResponse } from 'node:http';

/** Responses ready this turn, each with what to write; flushed by one setImmediate. */
export class TurnWrites<T> {
  private responses: ServerResponse[] = [];
  private items: T[] = [];
  private scheduled = false;
  private readonly flush = (): void => this.run();

  /** `write` puts one item on its response; it runs in the check phase of the turn. */
  constructor(private readonly write: (res: ServerResponse, item: T) => void) {}

  add(res: ServerResponse, item: T): void {
    this.responses.push(res);
    this.items.push(item);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  private run(): void {
    const { responses, items, write } = this;
    this.responses = [];
    this.items = [];
    this.scheduled = false;
    for (let i = 0; i < responses.length; i++) {
      const res = responses[i]!;
      try {
        write(res, items[i]!);
      } catch {
        // A response that cannot be written (headers already sent, socket gone) must not keep the
        // rest of the turn's responses from going out.
        res.destroy();
      }
    }
  }
}
