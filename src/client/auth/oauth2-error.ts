/**
 * Why the client could not get an OAuth 2.0 access token (decision 0168): the authorization
 * server refused a grant (RFC 6749 §5.2, RFC 8628 §3.5), answered with something that is not a
 * token, or a person must log in again. A local error (house style rule 4): it is not an A2A
 * error, and like the client-credentials failures before it, its kind is `BAD_RESPONSE`.
 * Its message never holds a secret: descriptions from the server are cleaned of every secret
 * the request carried (`redacted`).
 */
import { A2ALocalError } from '../client-errors.js';

/** No access token could be had; `error` says why in OAuth's words. */
export class OAuthError extends A2ALocalError {
  /** The OAuth error code, e.g. `invalid_client`, `invalid_grant`, `access_denied`, `expired_token`. */
  readonly error: string;
  /** True when a person has to log in again (the refresh token is gone or refused, no login yet). */
  readonly loginRequired: boolean;

  constructor(
    message: string,
    options: {
      /** The OAuth error code, or Concord's own (`login_required`, `invalid_response`, `invalid_endpoint`). */
      error: string;
      /** The endpoint that answered (token, device authorization or metadata URL). */
      url?: string;
      /** Its HTTP status, when it answered. */
      httpStatus?: number;
      /** True when only a new login by a person can give a token. */
      loginRequired?: boolean;
      cause?: unknown;
    },
  ) {
    super(
      'BAD_RESPONSE',
      message,
      Object.assign(
        {},
        options.url === undefined ? {} : { url: options.url },
        options.httpStatus === undefined ? {} : { httpStatus: options.httpStatus },
        options.cause === undefined ? {} : { cause: options.cause },
      ),
    );
    this.name = 'OAuthError';
    this.error = options.error;
    this.loginRequired = options.loginRequired === true;
  }
}

/** `text` with every occurrence of a non-empty secret replaced, so no message can echo one. */
export function redacted(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret !== '') out = out.split(secret).join('[redacted]');
  }
  return out;
}
