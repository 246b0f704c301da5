/**
 * `--debug` and `--insecure` of the calling commands (a2a-cli SPEC v0.2 §5.2, §10.1;
 * `A2ACLI_OUT_007`, `A2ACLI_AUTH_003`; decision 0169). `--debug` writes how the command talks to
 * the agent to stderr: the interface chosen, then every request as sent (method, URL, attempt,
 * headers, body) and every answer as read (status, time to the headers, headers, body: whole for
 * a unary answer, chunk by chunk for a stream), and each exchange of an OAuth credential with an
 * authorization server, its secrets as [REDACTED] (`authServerDebug`). Each line goes through the
 * CLI's stderr writer, so the credential redaction of redaction.ts applies and no flag defeats it.
 * `--insecure` turns TLS certificate verification off for this command only, and says so on
 * stderr, loudly once more the first time a credential goes out over such a connection.
 */
import type { AuthServerExchange, ClientInterceptor, Credential, OutgoingCall } from '../../client/index.js';
import type { CliIo } from '../cli-io.js';
import { REDACTED, registerSecret } from '../redaction.js';

/** Every debug line starts with this, so a reader (or grep) tells it from other diagnostics. */
const PREFIX = 'debug:';

/** Writes `text` as debug lines, each line of it after `mark` (`>` sent, `<` received). */
function lines(io: CliIo, mark: string, text: string): void {
  for (const line of text.replace(/\r?\n$/, '').split(/\r?\n/)) io.err(`${PREFIX} ${mark} ${line}`);
}

/** The interceptor that logs the wire exchange of every request the client makes. */
export function wireDebug(io: CliIo): ClientInterceptor {
  const logged = new WeakSet<OutgoingCall>();
  // Logged once, when the answer starts (`after`) or its first message arrives (`received`: a
  // gRPC stream reports `after` only when it ends). Not in `before`: the credentials are presented
  // after the `before` interceptors, and a reader debugging authentication wants to see them go.
  const request = (call: OutgoingCall): void => {
    if (logged.has(call)) return;
    logged.add(call);
    const attempt = call.attempt > 1 ? `, attempt ${call.attempt}` : '';
    io.err(`${PREFIX} > ${call.method} ${call.url.href} (${call.purpose}${attempt})`);
    for (const [name, value] of Object.entries(call.headers)) io.err(`${PREFIX} > ${name}: ${value}`);
    if (call.body !== undefined) lines(io, '>', call.body);
  };
  return {
    after(call, outcome) {
      request(call);
      const ms = `${Math.round(outcome.durationMs)} ms`;
      if (outcome.error !== undefined) {
        io.err(`${PREFIX} < no answer after ${ms}: ${(outcome.error as Error).message}`);
        return;
      }
      const status = outcome.status ?? `gRPC status ${String(outcome.grpcStatus)}`;
      io.err(`${PREFIX} < ${status} in ${ms}`);
      for (const [name, value] of Object.entries(outcome.headers ?? {}))
        io.err(`${PREFIX} < ${name}: ${value}`);
    },
    received(call, body) {
      request(call);
      lines(io, '<', body);
    },
  };
}

/**
 * The fields of an OAuth 2.0 request or answer whose values are secrets: the client's secret and
 * assertions (RFC 6749 §2.3.1, RFC 7523), tokens issued or presented (RFC 6749 §5.1, §6, OpenID
 * Connect's `id_token`, RFC 8693), codes and their verifiers (RFC 6749 §4.1.3, RFC 7636, RFC 8628
 * §3.2's `device_code`) and a password (RFC 6749 §4.3).
 */
const OAUTH_SECRET_FIELDS = new Set([
  'client_secret',
  'client_assertion',
  'assertion',
  'access_token',
  'refresh_token',
  'id_token',
  'subject_token',
  'actor_token',
  'code',
  'code_verifier',
  'device_code',
  'password',
]);

/** Form fields as `application/x-www-form-urlencoded` text, the secret ones' values [REDACTED]. */
function formText(fields: readonly [string, string][]): string {
  return fields
    .map(([name, value]) => {
      const shown = OAUTH_SECRET_FIELDS.has(name) ? REDACTED : encodeURIComponent(value);
      return `${encodeURIComponent(name)}=${shown}`;
    })
    .join('&');
}

/** A JSON object's text, or undefined for anything else. */
function jsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `--debug`'s lines for the exchanges of OAuth credentials with an authorization server (the
 * client's `onAuthServerExchange`; these requests pass no interceptor): the endpoint and the
 * grant, the headers and the form as sent, the status, time and answer. The value of every secret
 * field (`OAUTH_SECRET_FIELDS`) and of the `authorization` header is written as [REDACTED], and
 * registered with the redaction first, so no other line (an error quoting it, the bearer header
 * of the calls that follow) shows it either.
 */
export function authServerDebug(io: CliIo): (exchange: AuthServerExchange) => void {
  return (exchange) => {
    const form = exchange.form === undefined ? [] : [...exchange.form];
    const answer = jsonObject(exchange.body);
    // An answer in a form rather than JSON (some servers answer so) is read as one.
    const formAnswer = answer === undefined ? [...new URLSearchParams(exchange.body?.trim() ?? '')] : [];
    for (const [name, value] of [...form, ...formAnswer, ...Object.entries(answer ?? {})])
      if (OAUTH_SECRET_FIELDS.has(name) && typeof value === 'string') registerSecret(value);
    const grant = exchange.form?.get('grant_type');
    const what =
      exchange.method === 'GET'
        ? 'authorization server metadata'
        : grant === undefined || grant === null
          ? 'device authorization endpoint'
          : `token endpoint, grant_type ${grant}`;
    io.err(`${PREFIX} > ${exchange.method} ${exchange.url.href} (${what})`);
    for (const [name, value] of Object.entries(exchange.headers)) {
      if (name === 'authorization') registerSecret(value.replace(/^\S+\s+/, ''));
      const shown = name === 'authorization' ? `${value.split(' ')[0] ?? ''} ${REDACTED}` : value;
      io.err(`${PREFIX} > ${name}: ${shown}`);
    }
    if (exchange.form !== undefined) io.err(`${PREFIX} > ${formText(form)}`);
    const ms = `${Math.round(exchange.durationMs)} ms`;
    if (exchange.status === undefined) {
      const why = exchange.error instanceof Error ? exchange.error.message : String(exchange.error);
      io.err(`${PREFIX} < no answer after ${ms}: ${why}`);
      return;
    }
    io.err(`${PREFIX} < ${exchange.status} in ${ms}`);
    if (answer !== undefined) {
      const shown = Object.fromEntries(
        Object.entries(answer).map(([name, value]) => [
          name,
          OAUTH_SECRET_FIELDS.has(name) ? REDACTED : value,
        ]),
      );
      io.err(`${PREFIX} < ${JSON.stringify(shown)}`);
    } else if (formAnswer.some(([name]) => OAUTH_SECRET_FIELDS.has(name))) {
      io.err(`${PREFIX} < ${formText(formAnswer)}`);
    } else if (exchange.body !== undefined && exchange.body !== '') lines(io, '<', exchange.body);
  };
}

/** The warning `--insecure` always gives: verification is never turned off silently (SPEC §4.5). */
export const INSECURE_WARNING =
  'warning: --insecure: TLS certificates are not verified; anyone on the path can read and change this traffic (development only)';

/**
 * The credential, which warns once on stderr when it is first presented over HTTPS or gRPC over
 * TLS without certificate verification (SPEC §10.1, `A2ACLI_AUTH_003`).
 */
export function warnedOnInsecure(credential: Credential, io: CliIo, warned: { done: boolean }): Credential {
  return {
    kind: credential.kind,
    fits: (scheme) => credential.fits(scheme),
    async apply(call, context) {
      if (!warned.done && call.url.protocol === 'https:') {
        warned.done = true;
        io.err(
          `WARNING: sending a credential (${credential.kind}) to ${call.url.host} over a connection whose certificate is not verified (--insecure): it can be stolen`,
        );
      }
      await credential.apply(call, context);
    },
  };
}
