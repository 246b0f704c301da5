/**
 * Keep-alive connections, pooled per origin (docs/decisions/0137-client-transport.md).
 * One pool per client: node's Agent keys its sockets by host and port, so each origin gets its
 * own set. The SSRF pinning still holds: a socket is only ever opened through the request's
 * pinned `lookup` (pinned-http.ts), so every pooled socket is connected to an address this
 * client's policy checked; a reused socket needs no new connect, hence no new lookup.
 */
import http from 'node:http';
import https from 'node:https';
import type { SecureContext } from 'node:tls';

/**
 * How long an idle socket is kept: below the 5 s keep-alive of node's and uvicorn's servers, so
 * the client drops a socket before the server does and the race on a closing socket stays rare.
 * node shortens it further when a server announces `Keep-Alive: timeout=N`.
 */
export const IDLE_SOCKET_MS = 4000;

/** The pooled agents of one client. */
export class ConnectionPool {
  private plain: http.Agent | undefined;
  private secure: https.Agent | undefined;
  private closed = false;

  /**
   * `insecureTls`: HTTPS certificates are not verified, on pooled and unpooled connections alike
   * (the client's `insecureTls`, off unless a caller turns it on); `clientCertificate` is
   * presented to a server that asks for one (mutual TLS); `secureContext`, when the client trusts
   * roots of its own (`trustedCertificates`, trusted-roots.ts), holds them and the client
   * certificate, and is used on every connection in place of both.
   */
  constructor(
    readonly insecureTls = false,
    readonly clientCertificate?: { cert: string; key: string },
    readonly secureContext?: SecureContext,
  ) {}

  /** The TLS options of an HTTPS connection: verification, the roots, and the client certificate. */
  tlsOptions(): { rejectUnauthorized?: false; cert?: string; key?: string; secureContext?: SecureContext } {
    return Object.assign(
      {},
      this.insecureTls ? { rejectUnauthorized: false as const } : {},
      this.secureContext === undefined
        ? (this.clientCertificate ?? {})
        : { secureContext: this.secureContext },
    );
  }

  /** The agent for `url`'s scheme; `false` (one connection per request) once the pool is closed. */
  agentFor(url: URL): http.Agent | false {
    if (this.closed) return false;
    if (url.protocol === 'https:') {
      return (this.secure ??= new https.Agent({
        keepAlive: true,
        timeout: IDLE_SOCKET_MS,
        ...this.tlsOptions(),
      }));
    }
    return (this.plain ??= new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }));
  }

  /** Closes every pooled socket, idle or in use; later requests use no pool. */
  close(): void {
    this.closed = true;
    this.plain?.destroy();
    this.secure?.destroy();
    this.plain = undefined;
    this.secure = undefined;
  }
}
