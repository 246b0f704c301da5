/**
 * Server-sent events read from a fetch response body (A2A 1.0 §11.6: each `data:` field one
 * StreamResponse in JSON). EventSource cannot send the credential header, so the console reads
 * the stream itself; a stream ends when the server ends it or the signal aborts the request.
 */
export async function* readEvents(response: Response): AsyncGenerator<unknown> {
  const body = response.body;
  if (body === null) return;
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let newline: number;
      while ((newline = buffer.search(/\r?\n/)) !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer[newline] === '\r' ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield JSON.parse(data.join('\n'));
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line[5] === ' ' ? 6 : 5));
        }
      }
    }
    if (data.length > 0) yield JSON.parse(data.join('\n'));
  } finally {
    reader.releaseLock();
  }
}
