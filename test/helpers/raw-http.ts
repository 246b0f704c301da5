/** Raw HTTP/1.1 over a TCP socket, for what fetch will not send: oversized or malformed requests, silence. */
import { connect, type Socket } from 'node:net';

/** A response read off the socket up to its close. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: unknown;
}

/** Opens a connection to `url`'s host and port; resolves once connected. */
export function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/**
 * Resolves with the milliseconds until `socket` closes, or rejects after `withinMs`. The socket is
 * set flowing, so a close the server starts with a FIN is seen (a paused socket never reads it).
 */
export function closedWithin(socket: Socket, withinMs: number): Promise<number> {
  const started = Date.now();
  if (socket.closed) return Promise.resolve(0);
  socket.resume();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`socket still open after ${withinMs} ms`)), withinMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

/** Collects everything `socket` receives until it closes. */
export function received(socket: Socket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  return new Promise((resolve) =>
    socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8'))),
  );
}

/** Parses one HTTP/1.1 response with a content-length body. */
export function parseResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`no complete response: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(end + 4);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status, headers, body, json };
}

/** Sends `request` (the raw bytes) on a new connection and reads the response the server closes with. */
export async function rawExchange(url: string, request: string): Promise<RawResponse> {
  const socket = await openSocket(url);
  const text = received(socket);
  socket.write(request);
  return parseResponse(await text);
}
