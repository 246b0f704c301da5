/**
 * Where clients reach a Concord server, when that is not the address it is bound to (decisions
 * 0138, 0149): the public URL of the HTTP listener, the gRPC listener's public `host:port` or URL,
 * and whether the proxy in front is trusted for its forwarding headers. Each comes from a
 * `concord serve` flag, else the environment, else the host config (`concord.config.json5`),
 * the usual order: what is typed for one run wins over what the machine sets, which wins over
 * what the project file says.
 */

/** The environment variable of the HTTP listener's public URL. */
export const PUBLIC_URL_ENV = 'CONCORD_PUBLIC_URL';
/** The environment variable of the gRPC listener's public `host:port` or URL. */
export const GRPC_PUBLIC_URL_ENV = 'CONCORD_GRPC_PUBLIC_URL';
/** The environment variable that trusts the proxy's forwarding headers (`1`/`true`, `0`/`false`). */
export const TRUST_PROXY_ENV = 'CONCORD_TRUST_PROXY';

/** Where clients reach the server; see the file comment. */
export interface PublicAddress {
  publicUrl?: string;
  grpcPublicUrl?: string;
  trustProxy?: boolean;
}

/** Why `text` cannot be a public URL (absolute http(s), no query or fragment), or undefined. */
export function publicUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${JSON.stringify(text)} is not an absolute URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `${JSON.stringify(text)} is not an http(s) URL`;
  if (url.search !== '' || url.hash !== '') return `${JSON.stringify(text)} has a query or fragment`;
  if (url.username !== '' || url.password !== '') return `${JSON.stringify(text)} has credentials in it`;
  return undefined;
}

/** Why `text` cannot be the gRPC listener's public address (`host:port`, or a URL with a host), or undefined. */
export function grpcPublicUrlProblem(text: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      if (url.hostname === '') return `${JSON.stringify(text)} names no host`;
      return url.search === '' && url.hash === ''
        ? undefined
        : `${JSON.stringify(text)} has a query or fragment`;
    } catch {
      return `${JSON.stringify(text)} is not a URL`;
    }
  }
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text);
  if (match === null || Number(match[2]) < 1 || Number(match[2]) > 65535) {
    return `${JSON.stringify(text)} is neither host:port nor a URL`;
  }
  return undefined;
}

function trustProxyOf(text: string): boolean {
  const value = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['', '0', 'false', 'no', 'off'].includes(value)) return false;
  throw new Error(`${TRUST_PROXY_ENV}: expected 1 or 0 (true or false), got ${JSON.stringify(text)}`);
}

/**
 * The address from `flags`, else `env`, else `config`. Throws an Error naming the environment
 * variable whose value is not usable (flags and the config are checked where they are read).
 */
export function publicAddressOf(
  flags: { [K in keyof PublicAddress]?: PublicAddress[K] | undefined },
  env: NodeJS.ProcessEnv,
  config: PublicAddress = {},
): PublicAddress {
  const fromEnv: PublicAddress = {};
  const url = env[PUBLIC_URL_ENV];
  if (url !== undefined && url !== '') {
    const problem = publicUrlProblem(url);
    if (problem !== undefined) throw new Error(`${PUBLIC_URL_ENV}: ${problem}`);
    fromEnv.publicUrl = url;
  }
  const grpc = env[GRPC_PUBLIC_URL_ENV];
  if (grpc !== undefined && grpc !== '') {
    const problem = grpcPublicUrlProblem(grpc);
    if (problem !== undefined) throw new Error(`${GRPC_PUBLIC_URL_ENV}: ${problem}`);
    fromEnv.grpcPublicUrl = grpc;
  }
  const trust = env[TRUST_PROXY_ENV];
  if (trust !== undefined) fromEnv.trustProxy = trustProxyOf(trust);
  const out: PublicAddress = {};
  const publicUrl = flags.publicUrl ?? fromEnv.publicUrl ?? config.publicUrl;
  const grpcPublicUrl = flags.grpcPublicUrl ?? fromEnv.grpcPublicUrl ?? config.grpcPublicUrl;
  const trustProxy = flags.trustProxy ?? fromEnv.trustProxy ?? config.trustProxy;
  if (publicUrl !== undefined) out.publicUrl = publicUrl;
  if (grpcPublicUrl !== undefined) out.grpcPublicUrl = grpcPublicUrl;
  if (trustProxy !== undefined) out.trustProxy = trustProxy;
  return out;
}
