/**
 * `concord card`'s reachability lint: does something answer at each interface URL a fetched card
 * declares? An HTTP interface answers with any HTTP status. A gRPC interface is `host:port`
 * (A2A 1.0 §4.4.6), not an HTTP URL, so it is probed as gRPC is carried: an HTTP/2 session over TLS
 * or, for a loopback host or a `grpc://` / `http://` URL, in plaintext (the client's rule,
 * decision 0071), answered when the server's HTTP/2 SETTINGS arrive (decision 0142). Every
 * probe passes the client's network guard first (decision 0039).
 */
import { connect } from 'node:http2';
import type { CardProblem } from '../../card/index.js';
import { A2ALocalError, checkTarget, parseGrpcTarget, type NetworkPolicy } from '../../client/internal.js';
import type { ProtocolVersion } from '../../protocol/index.js';
import { describeFailure } from '../exit-codes.js';

/** One interface URL of a card and where it sits in the card's JSON. */
interface DeclaredInterface {
  path: string;
  url: string;
  grpc: boolean;
}

const PROBE_TIMEOUT_MS = 5_000;

const isGrpc = (binding: unknown): boolean => typeof binding === 'string' && binding.toUpperCase() === 'GRPC';

/** 1.0 `supportedInterfaces`, or 0.3 `url` (its `preferredTransport`) and `additionalInterfaces`. */
function declared(json: Record<string, unknown>, version: ProtocolVersion): DeclaredInterface[] {
  const found: DeclaredInterface[] = [];
  const each = (list: unknown, path: string, bindingKey: string): void => {
    if (!Array.isArray(list)) return;
    list.forEach((entry: unknown, i) => {
      const { url, [bindingKey]: binding } = (entry ?? {}) as Record<string, unknown>;
      if (typeof url === 'string') found.push({ path: `${path}/${i}/url`, url, grpc: isGrpc(binding) });
    });
  };
  if (version === '1.0') each(json.supportedInterfaces, '/supportedInterfaces', 'protocolBinding');
  else {
    if (typeof json.url === 'string')
      found.push({ path: '/url', url: json.url, grpc: isGrpc(json.preferredTransport) });
    each(json.additionalInterfaces, '/additionalInterfaces', 'transport');
  }
  return found;
}

/** Resolves once the server at `origin` speaks HTTP/2 (its SETTINGS frame arrived). */
function http2Answers(origin: URL): Promise<void> {
  return new Promise((resolve, reject) => {
    const session = connect(origin);
    const timer = setTimeout(() => {
      session.destroy();
      reject(new Error(`no HTTP/2 answer within ${PROBE_TIMEOUT_MS / 1000} s`));
    }, PROBE_TIMEOUT_MS);
    session.once('remoteSettings', () => {
      clearTimeout(timer);
      session.close();
      resolve();
    });
    session.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      session.destroy();
      // An HTTP/1.1 server there answers the HTTP/2 preface with a bare "Protocol error".
      reject(error.code?.startsWith('ERR_HTTP2') === true ? new Error(`no HTTP/2: ${error.message}`) : error);
    });
  });
}

/** Probes one interface; the guard decides first whether it may be probed at all. */
async function probe(entry: DeclaredInterface, policy: NetworkPolicy): Promise<void> {
  if (entry.grpc) {
    // The client's own reading of a gRPC interface URL: host, port and TLS (decision 0071).
    const origin = parseGrpcTarget(entry.url).url;
    await checkTarget(origin, policy);
    await http2Answers(origin);
    return;
  }
  // The probe sends nothing and reads nothing, so it can use fetch after the check.
  await checkTarget(new URL(entry.url), policy);
  await fetch(entry.url, {
    method: 'GET',
    signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    redirect: 'manual',
  });
}

/**
 * Interface URLs that do not answer at all: an error each, or a warning when the guard kept the
 * probe from going out. A URL listed twice under the same binding is tried once.
 */
export async function unreachableInterfaces(
  json: Record<string, unknown>,
  version: ProtocolVersion,
  policy: NetworkPolicy,
): Promise<CardProblem[]> {
  const problems: CardProblem[] = [];
  const seen = new Set<string>();
  for (const entry of declared(json, version)) {
    const key = `${entry.grpc ? 'grpc' : 'http'} ${entry.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      await probe(entry, policy);
    } catch (error) {
      if (error instanceof A2ALocalError && error.kind === 'SSRF_BLOCKED') {
        problems.push({
          path: entry.path,
          severity: 'warning',
          message: `${entry.url} was not probed: ${describeFailure(error).line}`,
        });
        continue;
      }
      const why =
        error instanceof Error
          ? (error.cause instanceof Error ? error.cause.message : error.message).trim()
          : '';
      const what = entry.grpc ? `gRPC ${entry.url}` : entry.url;
      problems.push({ path: entry.path, severity: 'error', message: `${what} is not reachable (${why})` });
    }
  }
  return problems;
}
