/**
 * `--debug` and `--insecure` of the calling commands (a2a-cli SPEC v0.2 §5.2, §10.1;
 * `A2ACLI_OUT_007`, `A2ACLI_AUTH_003`; decision 0169). `--debug` writes how the command talks to
 * the agent to stderr: the interface chosen, then every request as sent (method, URL, attempt,
 * headers, body) and every answer as read (status, time to the headers, headers, body: whole for
 * a unary answer, chunk by chunk for a stream). Each line goes through the CLI's stderr writer, so
 * the credential redaction of redaction.ts applies and no flag defeats it. `--insecure` turns TLS
 * certificate verification off for this command only, and says so on stderr, loudly once more the
 * first time a credential goes out over such a connection.
 */
import type { ClientInterceptor, Credential, OutgoingCall } from '../../client/index.js';
import type { CliIo } from '../cli-io.js';

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
