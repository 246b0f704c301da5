/**
 * Exit codes and the error envelope of the `concord` command line (a2a-cli SPEC v0.2 §9.4, §9.6,
 * Appendix B and E; decision 0169). The exit code says whether the CLI did its job, not how the
 * agent's task turned out: a turn conducted and reported exits 0 whatever the task's state.
 * 3, 4 and 5 carry only their reserved meanings (unreachable, authentication, `--timeout`).
 * A failure is one envelope `{"error":{"code","message","hint","a2aCode"}}`: the A2A error's
 * name when the agent reported one, an `A2ACLI_ERR_*` code for the spec's CLI-local conditions,
 * a `CONCORD_ERR_*` code for Concord's own.
 */
import { A2AClientError, A2ALocalError } from '../client/index.js';

/** The exit codes, documented in `concord --help` and docs/guides/call-agents.md. */
export const EXIT = {
  /** The CLI did its job: the call succeeded, or a task's outcome (even failed) was reported. */
  OK: 0,
  /** The CLI could not complete the operation and no more specific code applies. */
  FAILURE: 1,
  /**
   * Every command: a mistake in the command line, whatever its kind (unknown command or option,
   * missing argument, bad option value, `--data` that is not JSON).
   */
  USAGE: 2,
  /** The agent or its card could not be reached or resolved (DNS, connection, TLS, no card). */
  UNREACHABLE: 3,
  /** Authentication could not be completed: credentials required and not supplied, or rejected. */
  AUTH: 4,
  /** `--timeout` expired before the task reached a terminal or interrupted state. */
  TIMEOUT: 5,
  /** Interrupted (Ctrl-C); the task goes on at the agent. */
  INTERRUPTED: 130,
} as const;

/** The CLI-local error codes of a2a-cli (SPEC Appendix E); never extended by Concord. */
export const A2ACLI_ERR = {
  USAGE: 'A2ACLI_ERR_USAGE',
  CARD_NOT_FOUND: 'A2ACLI_ERR_CARD_NOT_FOUND',
  CARD_INVALID: 'A2ACLI_ERR_CARD_INVALID',
  UNREACHABLE: 'A2ACLI_ERR_UNREACHABLE',
  CREDENTIALS_MISSING: 'A2ACLI_ERR_CREDENTIALS_MISSING',
  AUTH_FAILED: 'A2ACLI_ERR_AUTH_FAILED',
  TIMEOUT: 'A2ACLI_ERR_TIMEOUT',
  INTERNAL: 'A2ACLI_ERR_INTERNAL',
} as const;

/** Concord's own codes, for conditions Appendix E does not name (a distinct prefix, SPEC §9.4). */
export const CONCORD_ERR = {
  SSRF_BLOCKED: 'CONCORD_ERR_SSRF_BLOCKED',
  NO_COMPATIBLE_INTERFACE: 'CONCORD_ERR_NO_COMPATIBLE_INTERFACE',
  BAD_RESPONSE: 'CONCORD_ERR_BAD_RESPONSE',
  REQUEST_TIMEOUT: 'CONCORD_ERR_REQUEST_TIMEOUT',
  CARD_SIGNATURE_INVALID: 'CONCORD_ERR_CARD_SIGNATURE_INVALID',
  INTERRUPTED: 'CONCORD_ERR_INTERRUPTED',
  /** `conformance --tck`: the kit cannot be started here (no uv, no python3). */
  TCK_UNAVAILABLE: 'CONCORD_ERR_TCK_UNAVAILABLE',
  /** `conformance --tck`: the kit ran but left no report Concord can read. */
  TCK_FAILED: 'CONCORD_ERR_TCK_FAILED',
} as const;

/** Usage text listing the exit codes. */
export const EXIT_CODES_USAGE = `Exit codes (a2a-cli SPEC v0.2 §9.6):
  0    the command did its job; for send, subscribe and task get the task's outcome is in the
       output (a task that failed, was rejected or canceled, or waits for input or auth is
       named in a warning on stderr, and still exits 0)
  1    failure: the operation could not be completed (an A2A error from the agent, an answer
       that is not A2A, a refused private target...; check and conformance: a check failed)
  2    a mistake in the command line (unknown command or option, missing argument, bad value)
  3    the agent or its card could not be reached or resolved (DNS, connection, TLS, no card)
  4    authentication: credentials required and not given, or rejected
  5    --timeout expired before the task reached a terminal or interrupted state
  130  interrupted (Ctrl-C); the task goes on at the agent
With -o json a failure is one {"error":{"code","message","hint","a2aCode"}} object on stdout.`;

/** A mistake in the command line or its input; exits with USAGE. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure the CLI names itself: its envelope code, exit code and hint. */
export class CliFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exit: number,
    readonly hint: string | null = null,
    readonly a2aCode: string | number | null = null,
  ) {
    super(message);
    this.name = 'CliFailure';
  }
}

/**
 * A failure while the agent's card was being resolved, before any operation: a 404 there is "no
 * card at the reference" (exit 3), an answer that is no card is an invalid card (exit 1).
 */
export class CardResolutionError extends Error {
  constructor(readonly failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure));
    this.name = 'CardResolutionError';
  }
}

/**
 * Runs a check of a flag's value that a library function makes (and throws a plain Error for),
 * so that a bad value is a UsageError like every other (exit 2).
 */
export function asUsage<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** True for a mistake in the command line: a UsageError or node:util parseArgs's own errors. */
export function isUsageError(error: unknown): boolean {
  return error instanceof UsageError || isParseArgsError(error);
}

/** The error envelope of SPEC Appendix B. */
export interface ErrorEnvelope {
  error: { code: string; message: string; hint: string | null; a2aCode: string | number | null };
}

/** A failure as the CLI reports it: one line, an exit code, and the envelope for `-o json`. */
export interface DescribedFailure {
  /** One line for people: `<code>: <message>` (an agent's error adds its wire facts). */
  line: string;
  /** The exit code. */
  code: number;
  /** The machine-readable envelope. */
  envelope: ErrorEnvelope;
}

/** What the calling command knows about the failure's circumstances. */
export interface FailureContext {
  /** Credentials were given (flags, environment, a stored login): a 401 rejected them. */
  credentials?: boolean;
  /** A hint to use when the failure itself suggests none. */
  hint?: string;
  /** A hint for an A2A error the agent reported (a rejected `--task-id`: SPEC §6.2). */
  protocolHint?: string;
}

// The client's SSRF message tells library users about options; the CLI's users have a flag.
const LIBRARY_HINT = /;? ?pass allowPrivateNetworks: true or list the host in allowedHosts to allow it$/;
// The AI Catalog resolver's "no such agent" (an --agent that names none): no card at the reference.
const NO_SUCH_AGENT = /^No agent "/;
const MAX_RESPONSE_HINT = /\s*\(the client's maxResponseBytes\)$/;

function failure(
  code: string,
  message: string,
  exit: number,
  hint: string | null,
  a2aCode: string | number | null,
  line = `${code}: ${message}`,
): DescribedFailure {
  return { line, code: exit, envelope: { error: { code, message, hint, a2aCode } } };
}

/** The code the transport carried: gRPC status, JSON-RPC error code, or REST HTTP status. */
function wireCode(error: A2AClientError): number {
  if (error.grpcStatus !== undefined) return error.grpcStatus;
  // JSON-RPC errors travel with HTTP 200; a REST error's status is its transport-level code.
  return error.httpStatus === 200 || error.httpStatus === 0 ? error.code : error.httpStatus;
}

const AUTH_TYPES = new Set(['UnauthenticatedError', 'PermissionDeniedError']);

function agentError(error: A2AClientError, context: FailureContext): DescribedFailure {
  const facts = [`code ${error.code}`];
  if (error.reason !== undefined) facts.push(error.reason);
  // JSON-RPC errors travel with HTTP 200, which says nothing; a REST status does.
  if (error.httpStatus !== 200 && error.httpStatus !== 0) facts.push(`HTTP ${error.httpStatus}`);
  if (error.grpcStatus !== undefined) facts.push(`gRPC status ${error.grpcStatus}`);
  const auth = AUTH_TYPES.has(error.type);
  let hint: string | null = context.hint ?? null;
  if (auth && hint === null) hint = credentialsHint(context.credentials === true);
  hint ??= context.protocolHint ?? null;
  const message = error.reason === undefined ? error.message : `${error.message} (${error.reason})`;
  return failure(
    error.type,
    message,
    auth ? EXIT.AUTH : EXIT.FAILURE,
    hint,
    wireCode(error),
    `${error.type}: ${error.message} (${facts.join(', ')})`,
  );
}

/** What to do about refused or missing credentials. */
export function credentialsHint(given: boolean): string {
  return given
    ? 'the agent refused the credentials given: check --bearer / --api-key (or A2ACLI_BEARER / A2ACLI_API_KEY)'
    : 'pass credentials the agent card asks for: --bearer <token> or --api-key <key> (or set A2ACLI_BEARER / A2ACLI_API_KEY)';
}

/** OpenSSL's and node's codes for a certificate the client did not accept. */
const CERTIFICATE_CODES =
  /^(?:ERR_TLS_CERT_ALTNAME_INVALID|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|CERT_UNTRUSTED|CERT_REVOKED)$/;

const CERTIFICATE_HINT =
  "the agent's TLS certificate was not accepted; if it chains to a private CA, trust that CA with --ca-cert <file>; for a development agent with a self-signed certificate, --insecure skips the check (never with real credentials)";

/** True when the connection failed because the agent's certificate did not verify. */
function certificateRefused(error: A2ALocalError): boolean {
  const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && CERTIFICATE_CODES.test(code);
}

function localError(error: A2ALocalError, context: FailureContext, resolving: boolean): DescribedFailure {
  const status = error.httpStatus ?? null;
  let message = error.message.replace(MAX_RESPONSE_HINT, '');
  const hint = context.hint ?? null;
  switch (error.kind) {
    case 'NETWORK':
      return failure(
        A2ACLI_ERR.UNREACHABLE,
        message,
        EXIT.UNREACHABLE,
        hint ?? (certificateRefused(error) ? CERTIFICATE_HINT : null),
        null,
      );
    case 'TIMEOUT':
      return failure(
        CONCORD_ERR.REQUEST_TIMEOUT,
        message,
        EXIT.FAILURE,
        hint ?? 'a single request took longer than --request-timeout; raise it, or retry',
        null,
      );
    case 'ABORTED':
      return failure(A2ACLI_ERR.INTERNAL, message, EXIT.FAILURE, hint, null);
    case 'SSRF_BLOCKED':
      message = message.replace(LIBRARY_HINT, '');
      return failure(
        CONCORD_ERR.SSRF_BLOCKED,
        `${message}; pass --allow-private to allow private targets`,
        EXIT.FAILURE,
        hint ?? 're-run with --allow-private if you trust this target',
        null,
      );
    case 'NO_COMPATIBLE_INTERFACE':
      return failure(
        CONCORD_ERR.NO_COMPATIBLE_INTERFACE,
        message,
        EXIT.FAILURE,
        hint ?? 'pick an interface the card offers with --transport and --a2a-version (0.3 only on request)',
        null,
      );
    case 'UNSUPPORTED_OPERATION':
      // The protocol names this condition; its name is the code (SPEC §9.4).
      return failure('UnsupportedOperationError', message, EXIT.FAILURE, hint, null);
    case 'CARD_SIGNATURE_INVALID':
      return failure(CONCORD_ERR.CARD_SIGNATURE_INVALID, message, EXIT.FAILURE, hint, null);
    case 'BAD_RESPONSE':
      // An HTTP 401/403 that carries no A2A error: the credentials were missing or refused.
      if (status === 401 || status === 403) {
        const given = context.credentials === true;
        return failure(
          given ? A2ACLI_ERR.AUTH_FAILED : A2ACLI_ERR.CREDENTIALS_MISSING,
          message,
          EXIT.AUTH,
          hint ?? credentialsHint(given),
          status,
        );
      }
      if (resolving) {
        // No card at the reference (404, or any answer that is not one), or one that is no card.
        if ((status !== null && status !== 200) || NO_SUCH_AGENT.test(error.message))
          return failure(
            A2ACLI_ERR.CARD_NOT_FOUND,
            message,
            EXIT.UNREACHABLE,
            hint ?? 'check the agent card reference (-a): a host, an origin, a card URL or a file',
            status,
          );
        return failure(A2ACLI_ERR.CARD_INVALID, message, EXIT.FAILURE, hint, status);
      }
      if (MAX_RESPONSE_HINT.test(error.message))
        return failure(
          CONCORD_ERR.BAD_RESPONSE,
          `${message} (raise the limit with --max-response-bytes)`,
          EXIT.FAILURE,
          hint ?? 'raise the limit with --max-response-bytes <n>',
          status,
        );
      return failure(CONCORD_ERR.BAD_RESPONSE, message, EXIT.FAILURE, hint, status);
  }
}

/** Describes any thrown value for the terminal and for machines. */
export function describeFailure(error: unknown, context: FailureContext = {}): DescribedFailure {
  let resolving = false;
  if (error instanceof CardResolutionError) {
    resolving = true;
    error = error.failure;
  }
  if (error instanceof CliFailure)
    return failure(error.code, error.message, error.exit, error.hint ?? context.hint ?? null, error.a2aCode);
  if (error instanceof A2AClientError) return agentError(error, context);
  if (error instanceof A2ALocalError) return localError(error, context, resolving);
  if (isUsageError(error)) {
    const message = (error as Error).message;
    const hint = context.hint ?? 'see the options with --help';
    return failure(A2ACLI_ERR.USAGE, message, EXIT.USAGE, hint, null, message);
  }
  const message = error instanceof Error ? error.message : String(error);
  return failure(A2ACLI_ERR.INTERNAL, message, EXIT.FAILURE, context.hint ?? null, null, message);
}

/** node:util parseArgs reports unknown options and missing values with ERR_PARSE_ARGS_* codes. */
function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}
