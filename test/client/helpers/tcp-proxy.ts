/**
 * A TCP proxy for client resilience tests: forwards bytes to a target, records each connection's
 * request head, and can misbehave on purpose: refuse the first N connections (reset at once), or
 * cut the first event-stream connection right after its Nth SSE event, or let it go silent there
 * (open, but nothing more forwarded: a server that stalls mid-stream).
 */
import net from 'node:net';

/** What the proxy does wrong. */
export interface ProxyFaults {
  /** Reset this many connections before forwarding any (default 0). */
  refuseFirst?: number;
  /** Cut the first SSE response after this many complete events. */
  cutStreamAfterEvents?: number;
  /** Stop forwarding the first SSE response after this many complete events, leaving it open. */
  stallStreamAfterEvents?: number;
}

/** A running proxy. */
export interface TcpProxy {
  url: string;
  /** Request text (head and body start) of every forwarded connection, in order. */
  requests: string[];
  /** Connections accepted, refused ones included. */
  connections: number;
  target: { port: number };
  faults: ProxyFaults;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1; set `target.port` before the first connection. */
export async function startTcpProxy(faults: ProxyFaults = {}): Promise<TcpProxy> {
  let cutUsed = false;
  const sockets = new Set<net.Socket>();
  const proxy: TcpProxy = {
    url: '',
    requests: [],
    connections: 0,
    target: { port: 0 },
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((client) => {
    sockets.add(client);
    proxy.connections++;
    if (proxy.connections <= (proxy.faults.refuseFirst ?? 0)) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(proxy.target.port, '127.0.0.1');
    sockets.add(upstream);
    // The request text (head and the start of the body), kept up to 4 KiB per connection.
    let index = -1;
    client.on('data', (chunk: Buffer) => {
      if (index === -1) index = proxy.requests.push('') - 1;
      const sofar = proxy.requests[index] ?? '';
      if (sofar.length < 4096) proxy.requests[index] = sofar + chunk.toString('latin1');
      upstream.write(chunk);
    });
    let response = '';
    let events = 0;
    let current = '';
    let cutting = false;
    let stalled = false;
    upstream.on('data', (chunk: Buffer) => {
      if (stalled) return;
      const stall = proxy.faults.stallStreamAfterEvents;
      const limit = proxy.faults.cutStreamAfterEvents ?? stall;
      if (limit === undefined || cutUsed) {
        client.write(chunk);
        return;
      }
      const text = chunk.toString('latin1');
      response += text;
      if (!cutting && response.includes('text/event-stream')) {
        cutting = true;
        if (limit === 0 && stall !== undefined) {
          // Stalled before the first event: forward the response head only.
          const head = text.indexOf('\r\n\r\n', Math.max(0, text.indexOf('text/event-stream')));
          client.write(Buffer.from(text.slice(0, head + 4), 'latin1'));
          stalled = true;
          cutUsed = true;
          return;
        }
      }
      if (!cutting) {
        client.write(chunk);
        return;
      }
      // Forward up to the end of the limit-th event, then cut both sides.
      let out = '';
      for (const ch of text) {
        out += ch;
        current += ch;
        if (!current.endsWith('\n\n')) continue;
        if (current.includes('data:')) events++;
        current = '';
        if (events === limit) {
          cutUsed = true;
          if (stall !== undefined) {
            stalled = true;
            client.write(Buffer.from(out, 'latin1'));
            return;
          }
          client.write(Buffer.from(out, 'latin1'), () => {
            client.destroy();
            upstream.destroy();
          });
          return;
        }
      }
      client.write(Buffer.from(out, 'latin1'));
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  proxy.url = `http://127.0.0.1:${port}/`;
  return proxy;
}
