/**
 * A local OpenAI-compatible chat-completions server for tests, on a real socket: records every
 * request and answers `POST /v1/chat/completions` with a scripted reply streamed as
 * `chat.completion.chunk` SSE events (text deltas, and tool calls whose arguments arrive in
 * pieces), an error status, a malformed stream, or a stream that hangs until the client goes away.
 * `replies` scripts a different reply for each successive request (a tool loop's rounds);
 * `respond` decides each reply from the request itself (a model that reacts to what it is told).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tool call the stub makes the model ask for. */
export interface StubToolCall {
  /** The call id (default `call_<request>_<index>`). */
  id?: string;
  /** The function name (e.g. `send_to_agent`). */
  name: string;
  /** A string is sent as is (so it can be bad JSON); anything else as its JSON text. */
  arguments: unknown;
  /** How many deltas the arguments text is split into (default 3). */
  pieces?: number;
}

/** One scripted reply of `replies`. */
export interface StubReply {
  /** Content deltas (default none when there are tool calls, else the default tokens). */
  tokens?: string[];
  /** Tool calls, streamed after the tokens; the reply then finishes with `tool_calls`. */
  toolCalls?: StubToolCall[];
}

/** How the stub answers. */
export interface OpenAiStubOptions {
  /** One reply per chat-completions request, in order; the last repeats once the list is used up. */
  replies?: StubReply[];
  /** The reply to each request, from its parsed body and its number (0-based); wins over `replies`. */
  respond?: (body: Record<string, unknown> | undefined, request: number) => StubReply;
  /** Content deltas of the reply (default `['Hello', ',', ' world', '!']`). */
  tokens?: string[];
  /** Pause before each token after the first, in ms (default 0: all in one write). */
  delayMs?: number;
  /** Answer with this HTTP status and `errorBody` instead of a stream. */
  errorStatus?: number;
  /** Body of the error answer (default an OpenAI error object naming the status). */
  errorBody?: unknown;
  /** Send the first token, then nothing more until the client disconnects. */
  hang?: boolean;
  /** Send an event whose data is not JSON after the first token. */
  malformed?: boolean;
  /** Answer with one JSON `chat.completion`, as servers that ignore `stream: true` do. */
  json?: boolean;
}

/** One request the stub received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when the body was not JSON). */
  body: Record<string, unknown> | undefined;
}

/** A running stub. */
export interface OpenAiStub {
  /** Base URL ending in `/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** Resolves when a client disconnects before its reply ended (the Nth time, default first). */
  disconnected(count?: number): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_TOKENS = ['Hello', ',', ' world', '!'];

function chunk(id: string, model: string, delta: Record<string, unknown>, finish: string | null): string {
  const event = {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(event)}\n\n`;
}

/** `text` cut into `count` pieces of roughly equal length (empty pieces dropped). */
function split(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, count)));
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/** The tool-call deltas of one reply: a head delta with id and name, then the argument pieces. */
function toolCallChunks(id: string, model: string, calls: StubToolCall[], request: number): string {
  let out = '';
  for (const [index, call] of calls.entries()) {
    const head = {
      index,
      id: call.id ?? `call_${request}_${index}`,
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    out += chunk(id, model, { tool_calls: [head] }, null);
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    for (const piece of split(args, call.pieces ?? 3)) {
      out += chunk(id, model, { tool_calls: [{ index, function: { arguments: piece } }] }, null);
    }
  }
  return out;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the stub on 127.0.0.1 with an ephemeral port. */
export async function startOpenAiStub(options: OpenAiStubOptions = {}): Promise<OpenAiStub> {
  const requests: RecordedRequest[] = [];
  let disconnects = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const noteDisconnect = (): void => {
    disconnects++;
    for (const w of waiting.filter((w) => w.count <= disconnects)) w.resolve();
  };

  let completions = 0;

  async function reply(res: ServerResponse, body: Record<string, unknown> | undefined): Promise<void> {
    const model = typeof body?.model === 'string' ? body.model : 'stub-model';
    const request = completions++;
    const scripted =
      options.respond?.(body, request) ?? options.replies?.[Math.min(request, options.replies.length - 1)];
    const toolCalls = scripted?.toolCalls ?? [];
    const tokens = scripted?.tokens ?? (toolCalls.length > 0 ? [] : (options.tokens ?? DEFAULT_TOKENS));
    const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
    if (options.errorStatus !== undefined) {
      const error = options.errorBody ?? {
        error: { message: `stub failure ${options.errorStatus}`, type: 'server_error', code: null },
      };
      res.writeHead(options.errorStatus, { 'content-type': 'application/json' });
      res.end(JSON.stringify(error));
      return;
    }
    if (options.json === true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-stub',
          object: 'chat.completion',
          model,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: tokens.length === 0 ? null : tokens.join(''),
                ...(toolCalls.length === 0
                  ? {}
                  : {
                      tool_calls: toolCalls.map((call, index) => ({
                        id: call.id ?? `call_${request}_${index}`,
                        type: 'function',
                        function: {
                          name: call.name,
                          arguments:
                            typeof call.arguments === 'string'
                              ? call.arguments
                              : JSON.stringify(call.arguments),
                        },
                      })),
                    }),
              },
              finish_reason: finish,
            },
          ],
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const id = `chatcmpl-${requests.length}`;
    let out = chunk(id, model, { role: 'assistant', content: '' }, null);
    for (const [i, token] of tokens.entries()) {
      if (i > 0 && (options.delayMs ?? 0) > 0) {
        res.write(out);
        out = '';
        await sleep(options.delayMs!);
        if (res.destroyed) return;
      }
      out += chunk(id, model, { content: token }, null);
      if (i === 0 && (options.hang === true || options.malformed === true)) {
        res.write(out);
        if (options.malformed === true) res.end('data: {"choices": [oops\n\n');
        return; // hang: the 'close' listener records the client going away
      }
    }
    out += toolCallChunks(id, model, toolCalls, request);
    res.end(`${out}${chunk(id, model, {}, finish)}data: [DONE]\n\n`);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = undefined;
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      res.on('close', () => {
        if (!res.writableFinished) noteDisconnect();
      });
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      void reply(res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    disconnected(count = 1) {
      if (disconnects >= count) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ count, resolve }));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
