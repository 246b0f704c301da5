/**
 * SSE framing as received, for rule 29 (pure): the protocol's `SseDecoder` joins multi-line data
 * and hides what rule 29 judges, so the check splits the raw text into events itself (WHATWG
 * HTML §9.2.6: events end at a blank line; lines starting with `:` are comments) and keeps, per
 * event, how many `data:` lines it had and whether it carried an `id:`.
 */

/** One event as framed on the wire. */
export interface SseFrame {
  /** The data lines joined with "\n" (the SSE rule). */
  data: string;
  dataLines: number;
  id?: string;
  event?: string;
}

function field(line: string): [string, string] {
  const colon = line.indexOf(':');
  if (colon < 0) return [line, ''];
  const value = line.slice(colon + 1);
  return [line.slice(0, colon), value.startsWith(' ') ? value.slice(1) : value];
}

/** Incremental splitter: push text, get the events it completed. */
export class SseFrameReader {
  private buffer = '';

  /** Adds a chunk; returns the events completed by it. */
  push(chunk: string): SseFrame[] {
    let text = this.buffer + chunk;
    // A trailing CR may be the first half of a CRLF split across chunks.
    const hold = text.endsWith('\r') ? '\r' : '';
    if (hold !== '') text = text.slice(0, -1);
    const blocks = text.replace(/\r\n?/g, '\n').split('\n\n');
    this.buffer = (blocks.pop() ?? '') + hold;
    return blocks.flatMap((block) => {
      const frame: SseFrame = { data: '', dataLines: 0 };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const [name, value] = field(line);
        if (name === 'data') data.push(value);
        else if (name === 'id') frame.id = value;
        else if (name === 'event') frame.event = value;
      }
      if (data.length === 0) return [];
      frame.data = data.join('\n');
      frame.dataLines = data.length;
      return [frame];
    });
  }
}
