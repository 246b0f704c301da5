/**
 * Telling a visitor why the owner pages (approvals, push deliveries, evidence) show nothing: the
 * owner APIs answer only the agents' owners (src/host/owner-access.ts, decision 0159).
 */
import { ApiError } from '../api/http';
import type { ConsoleSession } from '../api/host';
import { ErrorNotice } from './common';

/**
 * Whether the session may use the owner APIs, as far as the console can tell: on a secured host
 * only credentials holding the owner scope (owner-access.ts). The host would answer 401, which
 * sends the whole console back to sign-in; asking first keeps the visitor where they are.
 */
export function isOwner(session: ConsoleSession): boolean {
  return !session.secured || session.scopes.includes(OWNER_SCOPE);
}

const OWNER_SCOPE = 'agents:approve';

/** Said instead of asking the host, to a signed-in visitor without the owner scope. */
export function NotOwner() {
  return (
    <div class="notice error" role="alert">
      <p>
        <strong>Only the agents' owners see this.</strong> Owner APIs (approvals, push deliveries, evidence)
        need credentials holding the {OWNER_SCOPE} scope; yours do not. Sign out and sign in with such
        credentials.
      </p>
    </div>
  );
}

/**
 * An owner API's refusal, explained: 404 where this listener does not serve the owner APIs (a host
 * without security serves them on its internal listener only), 401/403 for credentials without
 * the owner scope; anything else as the host said it.
 */
export function OwnerError({ error, what }: { error: unknown; what: string }) {
  if (!(error instanceof ApiError) || ![401, 403, 404].includes(error.status)) {
    return <ErrorNotice error={error} />;
  }
  return (
    <div class="notice error" role="alert">
      <p>
        <strong>The host does not show {what} here</strong> ({error.status}: {error.message}).
      </p>
      <p>
        {error.status === 404
          ? 'Owner APIs (approvals, push deliveries, evidence) are served to owners only: on a host without security, open the console on the internal listener; on a secured host, sign in with credentials holding the agents:approve scope.'
          : 'Owner APIs (approvals, push deliveries, evidence) need credentials holding the agents:approve scope: sign in with such credentials.'}
      </p>
    </div>
  );
}
