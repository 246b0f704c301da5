/**
 * The fetch adapter: `(Request) => Promise<Response>`, for runtimes built on Web Request/Response
 * (Bun, Deno, Cloudflare Workers, Hono, Next.js route handlers). SSE bodies are ReadableStreams
 * pulled on demand, which gives the same backpressure as the node adapter.
 */
import { A2AError } from '../../protocol/index.js';
import { isStreamResponse, type HttpApp, type HttpRequest } from '../http/http-types.js';

/** Options of the fetch handler. */
export interface FetchHandlerOptions {
  /** Path prefix the server is mounted at; stripped before routing. */
  basePath?: string;
}

async function readLimited(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : concat(chunks, size));
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge(limit: number): A2AError {
  return new A2AError('PayloadTooLargeError', `Request body exceeds the limit of ${limit} bytes`, {
    metadata: { limitBytes: String(limit) },
  });
}

/** Creates a fetch-style handler for an A2A server. */
export function createFetchHandler(
  server: HttpApp,
  options: FetchHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const encoder = new TextEncoder();
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    let path = url.pathname;
    if (basePath !== '') {
      if (path !== basePath && !path.startsWith(`${basePath}/`))
        return new Response('Not found', { status: 404 });
      path = path.slice(basePath.length) || '/';
    }
    const controller = new AbortController();
    request.signal.addEventListener('abort', () => controller.abort(), { once: true });
    const httpRequest: HttpRequest = {
      method: request.method.toUpperCase(),
      path,
      query: url.searchParams,
      header: (name) => request.headers.get(name) ?? undefined,
      text: () => readLimited(request, server.maxBodyBytes),
      signal: controller.signal,
      origin: `${url.origin}${basePath}`,
    };
    const response = await server.handle(httpRequest);
    if (!isStreamResponse(response)) {
      const body = response.status === 304 || response.body === '' ? null : response.body;
      return new Response(body, { status: response.status, headers: response.headers });
    }
    const iterator = response.stream[Symbol.asyncIterator]();
    const stream = new ReadableStream<Uint8Array>({
      async pull(sink) {
        const next = await iterator.next();
        if (next.done === true) sink.close();
        else sink.enqueue(encoder.encode(next.value));
      },
      cancel() {
        controller.abort();
        void iterator.return?.(undefined);
      },
    });
    return new Response(stream, { status: response.status, headers: response.headers });
  };
}
