/**
 * What a gRPC call tells the transport-neutral handler (A2A 1.0 §10.2, §3.2.6, §7.3): the protocol
 * version (the service's package names it; `a2a-version` metadata must agree), the activated
 * extensions (`a2a-extensions`, and 0.3's `x-a2a-extensions`), the caller (credentials in metadata,
 * checked by the same authenticator as HTTP), and an AbortSignal that fires when the client
 * cancels or the deadline passes.
 */
import type { Metadata } from '@grpc/grpc-js';
import { A2AError, negotiateVersion, type ProtocolVersion } from '../../protocol/internal.js';
import type { GrpcService } from '../../protocol/grpc/index.js';
import type { A2AServer } from '../a2a-server.js';
import type { CallContext } from '../call-context.js';
import { activateExtensions, extensionHeaderName } from '../http/call-setup.js';
import type { HttpRequest } from '../http/http-types.js';

/** Metadata as the HTTP-shaped request the authenticator and extension checks read. */
export function metadataRequest(metadata: Metadata, path: string, signal: AbortSignal): HttpRequest {
  return {
    method: 'POST',
    path,
    query: new URLSearchParams(),
    header(name) {
      // Binary (`-bin`) values carry no header text.
      const values = metadata.get(name.toLowerCase()).filter((v): v is string => typeof v === 'string');
      return values.length === 0 ? undefined : values.join(', ');
    },
    text: () => Promise.reject(new Error('a gRPC call has no HTTP body')),
    signal,
  };
}

/**
 * The version of a call on `service`. The package fixes the wire (lf.a2a.v1 is 1.0, a2a.v1 is
 * 0.3), so a call without `a2a-version` gets the service's version (decision 0070); a value naming
 * another version is -32009, pointing at the service that speaks it.
 */
export function versionOf(service: GrpcService, request: HttpRequest, other: GrpcService): ProtocolVersion {
  const raw = request.header('a2a-version');
  if (raw === undefined || raw.trim() === '') return service.version;
  const asked = raw.split(',').flatMap((item) => {
    try {
      return [negotiateVersion(item)];
    } catch {
      return [];
    }
  });
  if (asked.includes(service.version)) return service.version;
  if (asked.length === 0) negotiateVersion(raw); // throws -32009 naming the supported versions
  throw new A2AError(
    'VersionNotSupportedError',
    `${service.name} speaks A2A ${service.version}, not ${raw.trim()}; A2A ${other.version} is served by ${other.name}`,
    { metadata: { requestedVersion: raw.trim(), supportedVersions: service.version } },
  );
}

/** An AbortSignal fired when the call is cancelled (client gone, deadline passed). */
export function cancellationOf(call: {
  readonly cancelled: boolean;
  once(event: 'cancelled', listener: () => void): unknown;
}): AbortSignal {
  const controller = new AbortController();
  if (call.cancelled) controller.abort();
  else call.once('cancelled', () => controller.abort());
  return controller.signal;
}

/**
 * Sets up the handler's call context through the server's own setup (auth, required extensions);
 * its `signal` is the request's, so the handler sees the call's cancellation.
 */
export async function setupGrpcCall(
  server: A2AServer,
  request: HttpRequest,
  version: ProtocolVersion,
): Promise<CallContext> {
  const call = await server.setupCall(request, version, '');
  call.binding = 'GRPC';
  return call;
}

/** The extension URIs to echo in the response metadata (A2A 1.0 §3.2.6), under the name the client used. */
export function echoedExtensions(server: A2AServer, request: HttpRequest): [string, string] | undefined {
  const { activated } = activateExtensions(request, server.agentCard.capabilities.extensions ?? []);
  if (activated.length === 0) return undefined;
  return [extensionHeaderName(request), activated.join(', ')];
}
