/**
 * Optional peer packages (decision 0153). A client-only install carries none of them; each
 * feature below loads its packages on first use, and a missing one becomes an error that names
 * the feature and the exact install line, instead of Node's bare "Cannot find package".
 */

/** Each optional feature: what it is called in an error, and every package it needs. */
export const OPTIONAL_PEERS = {
  sqlite: {
    feature: 'The SQLite task store (the default of `concord serve`)',
    packages: ['better-sqlite3'],
  },
  postgres: { feature: 'PostgreSQL support', packages: ['pg'] },
  redis: { feature: 'The Redis cluster bus', packages: ['@redis/client'] },
  grpcClient: { feature: 'The gRPC client binding', packages: ['@grpc/grpc-js', 'protobufjs'] },
  grpcServer: {
    feature: 'Serving gRPC',
    packages: ['@grpc/grpc-js', '@grpc/proto-loader', '@grpc/reflection', 'grpc-health-check', 'protobufjs'],
  },
  mcp: { feature: 'MCP tool executors', packages: ['@modelcontextprotocol/sdk'] },
  tracing: {
    feature: 'Sending traces and metrics over OTLP (`concord serve --otlp`)',
    packages: [
      '@opentelemetry/sdk-trace',
      '@opentelemetry/sdk-metrics',
      '@opentelemetry/core',
      '@opentelemetry/resources',
      '@opentelemetry/context-async-hooks',
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/exporter-metrics-otlp-http',
    ],
  },
  prometheus: {
    feature: 'The Prometheus scrape endpoint (`concord serve --metrics`)',
    packages: [
      '@opentelemetry/sdk-metrics',
      '@opentelemetry/core',
      '@opentelemetry/resources',
      '@opentelemetry/exporter-prometheus',
    ],
  },
  logger: { feature: "`concord serve`'s logs", packages: ['pino'] },
} as const satisfies Record<string, { feature: string; packages: readonly string[] }>;

export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/** A feature was used whose optional package is not installed. */
export class MissingPeerError extends Error {
  readonly code = 'CONCORD_MISSING_PEER';
  /** The package Node could not find. */
  readonly missing: string;
  /** The command that installs every package of the feature. */
  readonly install: string;

  constructor(peer: OptionalPeer, missing: string, cause: unknown) {
    const { feature, packages } = OPTIONAL_PEERS[peer];
    const install = `npm install ${packages.join(' ')}`;
    super(`${feature} needs the ${missing} package, which is not installed: ${install}`, { cause });
    this.name = 'MissingPeerError';
    this.missing = missing;
    this.install = install;
  }
}

/**
 * Which of the feature's packages `err` says is missing: Node's ESM loader reports
 * ERR_MODULE_NOT_FOUND "Cannot find package 'x' imported from ...", require() reports
 * MODULE_NOT_FOUND "Cannot find module 'x'". Any other failure (a missing file of ours, a broken
 * native build) is not a missing peer and is passed on as it is.
 */
function missingPackage(peer: OptionalPeer, err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = (err as { code?: unknown }).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  return OPTIONAL_PEERS[peer].packages.find(
    (name) => err.message.includes(`'${name}'`) || err.message.includes(`'${name}/`),
  );
}

/** Runs `load` (an `import()` of the feature's module), naming a missing peer package if that fails. */
export async function loadPeer<T>(peer: OptionalPeer, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const missing = missingPackage(peer, err);
    throw missing === undefined ? err : new MissingPeerError(peer, missing, err);
  }
}

/** The synchronous form, for a `require()` of a CommonJS peer inside a synchronous API. */
export function requirePeer<T>(peer: OptionalPeer, load: () => T): T {
  try {
    return load();
  } catch (err) {
    const missing = missingPackage(peer, err);
    throw missing === undefined ? err : new MissingPeerError(peer, missing, err);
  }
}
