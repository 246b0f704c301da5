/**
 * The gRPC endpoint of an interface URL. Cards write it as `host:port` (A2A 1.0 §4.4.6; what the
 * official SDKs pass to their channels); `grpc://` and `http://` URLs mean plaintext, `grpcs://`
 * and `https://` TLS. A bare `host:port` uses TLS (A2A 1.0 §7.1, §10.1 require it) unless the host
 * is this machine, where development servers listen in plaintext (decision 0071).
 */
import { A2ALocalError } from '../client-errors.js';

/**
 * A `ChannelCredentials` of @grpc/grpc-js, named by its shape: the client's declarations must not
 * import @grpc/grpc-js, an optional peer a strict TypeScript app without gRPC does not have
 * (decision 0153). Every grpc-js ChannelCredentials has this method.
 */
export interface GrpcChannelCredentials {
  _isSecure(): boolean;
}

/** gRPC settings of the client. */
export interface GrpcClientOptions {
  /**
   * Channel credentials (`credentials.createSsl(...)` of @grpc/grpc-js); default TLS, plaintext
   * for loopback targets and `grpc://` URLs (decision 0071).
   */
  credentials?: GrpcChannelCredentials;
}

/** Where to connect and whether over TLS. */
export interface GrpcTarget {
  /** Hostname or IP literal, without IPv6 brackets. */
  host: string;
  port: number;
  tls: boolean;
  /** `http(s)://host:port/` for the network guard and interceptors. */
  url: URL;
}

const SCHEMES: Readonly<Record<string, boolean>> = {
  'grpc:': false,
  'http:': false,
  'grpcs:': true,
  'https:': true,
};

function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/** Parses an interface URL of the gRPC binding; BAD_RESPONSE when it names no host and port. */
export function parseGrpcTarget(text: string): GrpcTarget {
  const scheme = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(text)?.[1]?.toLowerCase();
  let url: URL;
  try {
    url = new URL(scheme === undefined ? `grpc://${text}` : text);
  } catch {
    url = new URL('invalid:');
  }
  const tlsByScheme = scheme === undefined ? undefined : SCHEMES[scheme];
  if (url.hostname === '' || url.port === '' || (scheme !== undefined && tlsByScheme === undefined)) {
    throw new A2ALocalError(
      'BAD_RESPONSE',
      `The card's gRPC interface URL ${JSON.stringify(text)} is not host:port (nor a grpc://, grpcs://, http:// or https:// URL with a port)`,
    );
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const tls = tlsByScheme ?? !isLoopback(host);
  return {
    host,
    port: Number(url.port),
    tls,
    url: new URL(`${tls ? 'https' : 'http'}://${url.host}/`),
  };
}
