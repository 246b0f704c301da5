/**
 * Server-Sent Events framing (WHATWG HTML §9.2; A2A 1.0 §9.4.2, §11.7): one `data:` line of JSON per
 * event, an optional `id:` used for `Last-Event-ID` resumption, comments as heartbeats.
 */

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
 * line ends, multi-line data, comments and the `id`/`event` fields.
 */
export class SseDecoder {
  private buffer = '';
  private data: string[] = [];
  private id: string | undefined;
  private event: string | undefined;

  /** Adds a chunk and returns the events it completed. */
  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer.slice(start));
      if (match === null) break;
      const end = start + match.index;
      // A lone `\r` at the very end may be the first half of `\r\n`: wait for more.
      if (match[0] === '\r' && end + 1 === this.buffer.length) break;
      this.line(this.buffer.slice(start, end), events);
      start = end + match[0].length;
    }
    this.buffer = this.buffer.slice(start);
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
