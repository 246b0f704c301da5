/**
 * Server-Sent Events framing (WHATWG HTML §9.2; A2A 1.0 §9.4.2, §11.7): one `data:` line of JSON per
 * event, an optional `id:` used for `Last-Event-ID` resumption, comments as heartbeats.
 */

const LF = 0x0a;
const CR = 0x0d;
const BOM = 0xfeff;

/** One event as written or read. */
export interface SseEvent {
  data: string;
  id?: string;
  event?: string;
}

/** Formats one event. `data` must be single-line JSON (JSON.stringify output always is). */
export function encodeSseEvent(event: SseEvent): string {
  let out = '';
  if (event.event !== undefined) out += `event: ${event.event}\n`;
  if (event.id !== undefined) out += `id: ${event.id}\n`;
  // A multi-line payload must be split over several data lines to stay valid SSE.
  out += event.data.includes('\n')
    ? event.data
        .split('\n')
        .map((line) => `data: ${line}\n`)
        .join('')
    : `data: ${event.data}\n`;
  return `${out}\n`;
}

/** A comment line; clients ignore it, proxies see traffic (keeps idle streams open). */
export function encodeSseComment(text: string): string {
  return `: ${text}\n\n`;
}

/**
 * Incremental SSE parser: feed text chunks, get complete events. Handles `\n`, `\r\n` and `\r`
 * line ends, multi-line data, comments, the `id`/`event` fields and a leading BOM (WHATWG HTML
 * §9.2.5, §9.2.6).
 *
 * Each chunk is scanned once: the text of an unfinished line is kept as pieces that are known to
 * hold no line end and joined only when its end arrives, so one large event delivered in many
 * socket reads costs time linear in its size (issue 27: a 1.4 MB artifact event in ~22 reads was
 * rescanned on every read).
 */
export class SseDecoder {
  /** The unfinished line, in the pieces it arrived in; none of them holds a line end. */
  private pending: string[] = [];
  /** The last chunk ended in a `\r` that ended a line: a `\n` opening the next one is its pair. */
  private afterCr = false;
  /** No text has arrived yet: a BOM here is not part of the stream (WHATWG HTML §9.2.5). */
  private atStart = true;
  private data: string[] = [];
  private id: string | undefined;
  private event: string | undefined;

  /** Adds a chunk and returns the events it completed. */
  push(chunk: string): SseEvent[] {
    const events: SseEvent[] = [];
    if (chunk === '') return events;
    let start = 0;
    if (this.atStart) {
      this.atStart = false;
      if (chunk.charCodeAt(0) === BOM) start = 1;
    }
    if (this.afterCr) {
      this.afterCr = false;
      if (chunk.charCodeAt(start) === LF) start++;
    }
    const lineEnd = /[\r\n]/g;
    for (;;) {
      lineEnd.lastIndex = start;
      const match = lineEnd.exec(chunk);
      if (match === null) break;
      const end = match.index;
      const piece = chunk.slice(start, end);
      const line = this.pending.length === 0 ? piece : this.pending.join('') + piece;
      this.pending = [];
      this.line(line, events);
      start = end + 1;
      if (chunk.charCodeAt(end) === CR) {
        // `\r\n` is one line end; a `\r` that ends the chunk may be the first half of one.
        if (start === chunk.length) this.afterCr = true;
        else if (chunk.charCodeAt(start) === LF) start++;
      }
    }
    if (start < chunk.length) this.pending.push(start === 0 ? chunk : chunk.slice(start));
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) {
        const event: SseEvent = { data: this.data.join('\n') };
        if (this.id !== undefined) event.id = this.id;
        if (this.event !== undefined) event.event = this.event;
        events.push(event);
      }
      this.data = [];
      this.event = undefined;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
    else if (field === 'event') this.event = value;
  }
}
